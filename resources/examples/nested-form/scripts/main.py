# Look a customer up, then place an order with a nested object argument.
customer = lookup_customer(email="ada@example.com")
order = create_order(
    customer={"name": customer["name"], "address": {"city": customer["city"], "country": "GB"}},
    items=[{"sku": "ABC-123", "quantity": 2}],
)
print("order", order["order_id"], "for", customer["name"])
