"""Every page route and the main API reads, as (who, path, status): who is "visitor", "user"
(a shopper with orders) or "admin"; {part}, {order} and {email} are filled in by the caller
(one of the catalog's parts, one of the shopper's unpaid orders, the shopper's e-mail).

The benchmark and tests/test_query_counts.py both walk this list.
"""

PAGES = [
    ("visitor", "/", 200),
    ("visitor", "/allparts", 200),
    ("visitor", "/allparts?page=2", 200),
    ("visitor", "/allparts?q=brake", 200),
    ("visitor", "/allparts?q=brake+pads&inStock=true&sort=price&page=1", 200),
    ("visitor", "/allparts?brand=EBC&brand=NGK&minPrice=0&maxPrice=24.99&category=brakes", 200),
    ("visitor", "/parts/{part}", 200),
    ("visitor", "/blogs", 200),
    ("visitor", "/myportfolio", 200),
    ("visitor", "/login", 200),
    ("visitor", "/signup", 200),
    ("visitor", "/saved", 200),
    ("visitor", "/no-such-page", 404),
    ("user", "/", 200),
    ("user", "/allparts", 200),
    ("user", "/allparts?category=brakes&brand=EBC&inStock=true&sort=price", 200),
    ("user", "/parts/{part}", 200),
    ("user", "/parts/{part}/review", 200),
    ("user", "/purchaseintent/{part}", 200),
    ("user", "/dashboard", 200),
    ("user", "/dashboard/profile", 200),
    ("user", "/dashboard/review", 200),
    ("user", "/dashboard/myorder", 200),
    ("user", "/dashboard/payment/{order}", 200),
    ("user", "/dashboard/orders/{order}", 200),
    ("user", "/saved", 200),
    ("admin", "/dashboard", 200),
    ("admin", "/dashboard/manageorders", 200),
    ("admin", "/dashboard/manageorders?state=unpaid&q=example&page=2", 200),
    ("admin", "/dashboard/manageparts", 200),
    ("admin", "/dashboard/addparts", 200),
    ("admin", "/dashboard/users", 200),
]

API_READS = [
    ("visitor", "/api/allparts", 200),
    ("visitor", "/api/allparts?limit=24", 200),
    ("visitor", "/api/allparts?q=brake&inStock=true&maxPrice=500&limit=24", 200),
    ("visitor", "/api/allparts/facets", 200),
    ("visitor", "/api/allparts/facets?q=brake&brand=EBC&priceMin=0&priceMax=24.99", 200),
    ("visitor", "/api/allparts/{part}", 200),
    ("visitor", "/api/allparts/{part}/reviews", 200),
    ("visitor", "/api/search/suggest?q=brake+pads", 200),
    ("user", "/api/search/suggest?q=brake+pads", 200),
    ("visitor", "/api/review", 200),
    ("visitor", "/api/saved", 200),
    ("user", "/api/saved", 200),
    ("user", "/api/user/me", 200),
    ("user", "/api/admin/{email}", 200),
    ("user", "/api/booking?email={email}", 200),
    ("user", "/api/booking/{order}", 200),
    ("admin", "/api/bookings", 200),
    ("admin", "/api/bookings?state=unpaid&q=example&limit=50", 200),
    ("admin", "/api/user", 200),
]
