# A flaky tool retried by the studio (watch the attempts on the timeline), then a
# call that waits until a person approves it in the Pending Calls dock.
price = fetch_quote(seats=12)
print(f"12 seats cost {price}")
decision = approve_order(seats=12, price=price)
print("approved" if decision["approved"] else "refused", "-", decision.get("note", ""))
