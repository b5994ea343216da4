"""What an order costs beyond its parts: shipping methods and their weight bands, tax rates,
vouchers and their uses, and the one function that prices a set of lines for a ship-to
address, a method and a code (the cart, the checkout and the orders all ask it)."""
