"""What the catalog tells the apps above it (which it may not import): a part is about to be
deleted, inside the deleting transaction (orders withdraws the part's unpaid orders); a part's
stock was changed by hand across its minimum order quantity (orders mails the shop admins, as
it does when an order's units cross it)."""

from django.dispatch import Signal

part_deleting = Signal()  # sender=Part, part=<the part>
part_stock_low = Signal()  # sender=Part, part=<the part, its stock now>
