"""Parts endpoints: the catalog, one part, adding, editing and deleting parts."""

from functools import partial

from django.http import HttpResponse
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.authentication import ShopJWTAuthentication
from core.api import created, errors, get_or_404, page_response, with_count
from core.parsers import ShopJSONParser
from core.permissions import IsShopAdmin

from . import selectors, services, stock, suggestions
from .bike_words import with_bike
from .facets import part_facets
from .fitment_serializers import (
    FitmentInputSerializer,
    FitmentSerializer,
    VehicleSearchInputSerializer,
    VehicleSerializer,
)
from .models import Part
from .search import kept_count, part_search
from .serializers import (
    CategoryCountSerializer,
    DeletedCountSerializer,
    FacetsSerializer,
    PartInputSerializer,
    PartNumberInputSerializer,
    PartNumberSerializer,
    PartOutputSerializer,
    PartSearchInputSerializer,
    StockChangeInputSerializer,
    SuggestInputSerializer,
    SuggestionsSerializer,
    numbers_clean,
    parts_json_body,
)

BIKE_FOUND = "X-Bike-Found"  # the vehicle a search's words named (catalog.bike_words)
STOCK_BY_PATCH = (
    "Stock can't be set here: send the units received or written off, with a reason, "
    "to POST /api/allparts/{id}/stock"
)


# JSON, or multipart/form-data with an `image` file (docs/api.md, "Image uploads").
PART_PARSERS = [ShopJSONParser, MultiPartParser]


class PartListApi(APIView):
    parser_classes = PART_PARSERS

    def get_permissions(self):
        return [IsShopAdmin()] if self.request.method == "POST" else []

    @extend_schema(
        parameters=[PartSearchInputSerializer],
        responses={200: PartOutputSerializer(many=True), **errors(400, 401)},
    )
    def get(self, request):
        if not request.query_params:  # the plain list (kept whole for visitors: api_urls.py)
            body = parts_json_body(selectors.part_list())
            return HttpResponse(body, content_type="application/json")
        search = PartSearchInputSerializer(data=request.query_params)
        search.is_valid(raise_exception=True)
        query, bike = with_bike(search.part_query())
        response = page_response(
            part_search(query, with_numbers=True),
            PartOutputSerializer,
            search,
            total=count() if (count := kept_count(query)) else None,
            count_in_rows=query.reads_every_match,
            encode=partial(parts_json_body, fits=query.fits is not None),
        )
        if response["X-Total-Count"] == "0" and (words := request.query_params.get("q")):
            services.missed_search_count(q=words)  # as asked, a bike named in them too
        if bike is not None:
            response[BIKE_FOUND] = str(bike.pk)
        return response

    @extend_schema(
        request=PartInputSerializer,
        responses={
            201: with_count(PartOutputSerializer, "insertedId"),
            **errors(400, 401, 403, 415),
        },
    )
    def post(self, request):
        data = PartInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        part = services.part_create(**data.validated_data, by=request.user)
        return created(PartOutputSerializer(part).data, part.pk)


class PartFacetsApi(APIView):
    """GET /api/allparts/facets: the counts beside a search (catalog.facets), with the
    filters of GET /api/allparts (its order and page are taken and left unused)."""

    @extend_schema(
        parameters=[PartSearchInputSerializer],
        responses={200: FacetsSerializer, **errors(400, 401)},
    )
    def get(self, request):
        search = PartSearchInputSerializer(data=request.query_params)
        search.is_valid(raise_exception=True)
        query, _ = with_bike(search.part_query())  # as GET /api/allparts reads the words
        return Response(part_facets(query))


class PartDetailApi(APIView):
    parser_classes = PART_PARSERS

    def get_permissions(self):
        return [] if self.request.method == "GET" else [IsShopAdmin()]

    @extend_schema(responses={200: PartOutputSerializer, **errors(401, 404)})
    def get(self, request, pk):
        part = get_or_404(Part.objects.select_related("category"), pk)
        return Response(PartOutputSerializer(part).data)  # other numbers: a query of their own

    @extend_schema(
        request=PartInputSerializer,
        responses={
            200: with_count(PartOutputSerializer, "modifiedCount"),
            **errors(400, 401, 403, 404, 415),
        },
    )
    def patch(self, request, pk):
        part = get_or_404(Part.objects, pk)
        sent = request.data if isinstance(request.data, dict) else {}
        if "availableQuantity" in sent:  # stock changes on purpose only: POST …/stock
            raise ValidationError({"availableQuantity": [STOCK_BY_PATCH]})
        data = PartInputSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        services.part_update(part=part, **data.validated_data)
        return Response({**PartOutputSerializer(part).data, "modifiedCount": 1})

    @extend_schema(responses={200: DeletedCountSerializer, **errors(401, 403, 404)})
    def delete(self, request, pk):
        services.part_delete(part=get_or_404(Part.objects, pk))
        return Response({"deletedCount": 1})


class PartStockApi(APIView):
    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=StockChangeInputSerializer,
        responses={200: PartOutputSerializer, **errors(400, 401, 403, 404, 409, 415)},
    )
    def post(self, request, pk):
        """Units received (+) or written off (−) under the part's lock, kept as a movement."""
        part = get_or_404(Part.objects.select_related("category"), pk)
        data = StockChangeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        stock.stock_adjust(
            part=part, change=fields["change"], note=fields["reason"], by=request.user
        )
        return Response(PartOutputSerializer(part).data)


class CategoryListApi(APIView):
    """The shop's categories by name, with how many parts each holds."""

    @extend_schema(responses={200: CategoryCountSerializer(many=True), **errors(401)})
    def get(self, request):
        return Response(CategoryCountSerializer(selectors.category_list(), many=True).data)


class PartFitmentApi(APIView):
    """The vehicles a part fits, and whether it fits every bike; admins replace them."""

    def get_permissions(self):
        return [] if self.request.method == "GET" else [IsShopAdmin()]

    @extend_schema(responses={200: FitmentSerializer, **errors(401, 404)})
    def get(self, request, pk):
        return Response(fitment_body(get_or_404(Part.objects.only("id", "universal"), pk)))

    @extend_schema(
        request=FitmentInputSerializer,
        responses={200: FitmentSerializer, **errors(400, 401, 403, 404, 415)},
    )
    def put(self, request, pk):
        part = get_or_404(Part.objects.only("id", "universal"), pk)
        data = FitmentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        fields = data.validated_data
        services.fitment_set(
            part=part, universal=fields["universal"], vehicle_ids=fields["vehicles"]
        )
        return Response(fitment_body(part))


class PartNumbersApi(APIView):
    """PUT /api/allparts/{id}/numbers: the part's other numbers (OEM, superseded,
    aftermarket), which replace the stored ones; 200 with them."""

    permission_classes = [IsShopAdmin]

    @extend_schema(
        request=PartNumberInputSerializer(many=True),
        responses={200: PartNumberSerializer(many=True), **errors(400, 401, 403, 404, 415)},
    )
    def put(self, request, pk):
        part = get_or_404(Part.objects.only("id"), pk)
        numbers = services.part_numbers_set(part=part, numbers=numbers_clean(request.data))
        return Response(PartNumberSerializer(numbers, many=True).data)


def fitment_body(part: Part) -> dict:
    vehicles = selectors.part_vehicles(part_id=part.pk)
    return FitmentSerializer({"universal": part.universal, "vehicles": vehicles}).data


class VehicleMakesApi(APIView):
    """Every make with a vehicle, by name."""

    @extend_schema(responses={200: list[str], **errors(401)})
    def get(self, request):
        return Response(selectors.vehicle_makes())


class VehicleListApi(APIView):
    """Vehicles by make, model and year, each optional and exact (no case)."""

    @extend_schema(
        parameters=[VehicleSearchInputSerializer],
        responses={200: VehicleSerializer(many=True), **errors(400, 401)},
    )
    def get(self, request):
        search = VehicleSearchInputSerializer(data=request.query_params)
        search.is_valid(raise_exception=True)
        data = search.validated_data
        vehicles = selectors.vehicle_list(
            make=data.get("make", ""), model=data.get("model", ""), year=data.get("year")
        )
        return page_response(vehicles, VehicleSerializer, search)


class SuggestApi(APIView):
    """GET /api/search/suggest?q=…: the parts (as `q` ranks them), categories and bikes the
    search box suggests; empty lists for fewer than two characters. The same answer for
    everyone, so it reads no session: a signed-in page's search box costs no query for its
    person. A bearer token is still checked (a bad one answers 401)."""

    authentication_classes = [ShopJWTAuthentication]

    @extend_schema(
        parameters=[SuggestInputSerializer],
        responses={200: SuggestionsSerializer, **errors(401)},
    )
    def get(self, request):
        q = SuggestInputSerializer.q_of(request.query_params)
        return HttpResponse(suggestions.suggest_body(q), content_type="application/json")
