# An async agent script, as written for Inngest's sandbox tools.
import asyncio

from toolstudio import tools


async def main():
    customer = await tools.getCustomer("cus_1")
    return customer["seats"] * 10


print(asyncio.run(main()))
