"""What the catalog tells the apps above it (which it may not import): a part is about to be
deleted, inside the deleting transaction. orders withdraws the part's unpaid orders."""

from django.dispatch import Signal

part_deleting = Signal()  # sender=Part, part=<the part>
