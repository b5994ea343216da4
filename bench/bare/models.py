from django.db import models


class Shelf(models.Model):
    """One row that every order locks (as an order locks its part)."""

    stock = models.IntegerField()

    def __str__(self) -> str:
        return f"shelf {self.pk}"


class Order(models.Model):
    shelf = models.ForeignKey(Shelf, on_delete=models.CASCADE)
    quantity = models.IntegerField()
    address = models.CharField(max_length=500)
    phone = models.CharField(max_length=40)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"order {self.pk}"
