"""Ordering rules, one module per concern: placing an order of one or more lines (bounds,
prices, the cap on unpaid orders, all lines or none),
holds (how long and how much an account may hold), expiring (lapsed holds, a deleted part's
orders), paying, cancelling, approving and refunding; returns (returning: requested,
decided, received and refunded in part); and the cart (its lines, the merge at sign-in, its
checkout as one order).

Locks are always taken in one order: the cart's row (the cart's writes and its checkout),
the account (placing), then the order's row, then a return's row (returning), then the
part's row (inside catalog.stock), then the invoices' counter (a payment's last write:
invoicing), so concurrent services wait for each other and never deadlock. Each service
that changes what the shop shows of an order makes the orders' cached reads stale itself
(common.orders_changed); nothing else does.
"""

from .approving import ORDER_NOT_PAID, booking_approve
from .cancelling import PAID_MEANWHILE, PAID_ORDER_LOCKED, PAYMENT_IN_PROGRESS, booking_cancel
from .cart import (
    CART_EMPTY,
    CART_FULL,
    NOT_IN_CART,
    cart_add,
    cart_checkout,
    cart_merge,
    cart_prune_visitors,
    cart_remove,
    cart_set,
    cart_voucher_apply,
    cart_voucher_remove,
)
from .common import ORDER_GONE, ORDER_REFUNDED, Settled
from .expiring import booking_expire, booking_release_lapsed_holds, booking_withdraw_for_part
from .guests import booking_find_mail, booking_guest_join, booking_guest_join_offer, guest_key_new
from .holds import HELD_SHARE_EXCEEDED
from .invoicing import invoice_number_take
from .paying import (
    ALREADY_PAID,
    ORDER_EXPIRED,
    PAYMENT_REFUNDED,
    booking_confirm_payment,
    booking_mark_paid,
    booking_record_payment_failure,
    booking_settle_payment,
    booking_start_payment,
    check_payable,
)
from .placing import (
    LINE_UNAVAILABLE,
    MAX_TOTAL,
    PART_GONE,
    PRICES_CHANGED,
    QUANTITY_ABOVE_STOCK,
    QUANTITY_BELOW_MINIMUM,
    QUANTITY_SOLD_OUT,
    TOO_MANY_UNPAID,
    TOTAL_TOO_LARGE,
    LineUnavailable,
    PricesChanged,
    VoucherNoLongerApplies,
    booking_correct,
    booking_place,
    booking_place_lines,
    check_quantity,
    quantity_problem,
)
from .refunding import REFUND_UNPAID, booking_mark_refunded, booking_refund
from .returning import (
    NOT_APPROVED,
    NOT_REQUESTED,
    NOT_SHIPPED,
    PAST_WINDOW,
    refund_share,
    return_decide,
    return_receive,
    return_request,
    return_window_ends,
    returnable,
)
from .ship_to import ShipTo, ship_to_new, ship_to_saved, ship_to_text
from .timeline import booking_event_add, booking_note_add

__all__ = [
    "ALREADY_PAID",
    "CART_EMPTY",
    "CART_FULL",
    "HELD_SHARE_EXCEEDED",
    "LINE_UNAVAILABLE",
    "MAX_TOTAL",
    "NOT_IN_CART",
    "ORDER_EXPIRED",
    "ORDER_GONE",
    "ORDER_NOT_PAID",
    "ORDER_REFUNDED",
    "PAID_MEANWHILE",
    "PAID_ORDER_LOCKED",
    "PART_GONE",
    "PAYMENT_IN_PROGRESS",
    "PAYMENT_REFUNDED",
    "PRICES_CHANGED",
    "QUANTITY_ABOVE_STOCK",
    "QUANTITY_BELOW_MINIMUM",
    "QUANTITY_SOLD_OUT",
    "REFUND_UNPAID",
    "TOO_MANY_UNPAID",
    "TOTAL_TOO_LARGE",
    "NOT_APPROVED",
    "NOT_REQUESTED",
    "NOT_SHIPPED",
    "PAST_WINDOW",
    "LineUnavailable",
    "PricesChanged",
    "Settled",
    "ShipTo",
    "VoucherNoLongerApplies",
    "booking_approve",
    "booking_cancel",
    "booking_confirm_payment",
    "booking_correct",
    "booking_event_add",
    "booking_expire",
    "booking_find_mail",
    "booking_guest_join",
    "booking_guest_join_offer",
    "booking_mark_paid",
    "booking_mark_refunded",
    "booking_note_add",
    "booking_place",
    "booking_place_lines",
    "booking_record_payment_failure",
    "booking_refund",
    "booking_release_lapsed_holds",
    "booking_settle_payment",
    "booking_start_payment",
    "booking_withdraw_for_part",
    "cart_add",
    "cart_checkout",
    "cart_merge",
    "cart_prune_visitors",
    "cart_remove",
    "cart_set",
    "cart_voucher_apply",
    "cart_voucher_remove",
    "check_payable",
    "check_quantity",
    "guest_key_new",
    "invoice_number_take",
    "quantity_problem",
    "refund_share",
    "return_decide",
    "return_receive",
    "return_request",
    "return_window_ends",
    "returnable",
    "ship_to_new",
    "ship_to_saved",
    "ship_to_text",
]
