# Every tool bound to this script is also a global function: no import needed.
rate = get_exchange_rate(base="USD", quote="EUR")
print(f"100 USD = {100 * rate} EUR")
