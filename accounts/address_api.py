"""The address book's endpoints: GET/POST /api/addresses, PUT/DELETE /api/addresses/{id}."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import errors, get_or_404

from . import addresses
from .serializers import AddressDeletedSerializer, AddressInputSerializer, AddressOutputSerializer


class AddressListApi(APIView):
    """The caller's addresses (the default first) and a new one."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: AddressOutputSerializer(many=True), **errors(401)})
    def get(self, request):
        rows = addresses.address_list_of(request.user)
        return Response([addresses.address_as_dict(address) for address in rows])

    @extend_schema(
        request=AddressInputSerializer,
        responses={201: AddressOutputSerializer, **errors(400, 401, 415)},
    )
    def post(self, request):
        data = AddressInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        address = addresses.address_create(owner=request.user, **data.validated_data)
        return Response(addresses.address_as_dict(address), status=status.HTTP_201_CREATED)


class AddressDetailApi(APIView):
    """One of the caller's addresses; another account's id is not found (404)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=AddressInputSerializer,
        responses={200: AddressOutputSerializer, **errors(400, 401, 404, 415)},
    )
    def put(self, request, pk):
        address = get_or_404(addresses.address_of(request.user), pk)
        data = AddressInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        address = addresses.address_update(address=address, **data.validated_data)
        return Response(addresses.address_as_dict(address))

    @extend_schema(responses={200: AddressDeletedSerializer, **errors(401, 404)})
    def delete(self, request, pk):
        addresses.address_delete(address=get_or_404(addresses.address_of(request.user), pk))
        return Response({"deletedCount": 1})
