// The same agent script in Node: tools are awaited through the toolstudio module.
const { tools } = require("toolstudio");

async function main() {
  const customer = await tools.getCustomer("cus_1");
  return customer.seats * 10;
}

main().then((seats) => console.log(seats));
