# The server asks back before it books (elicitation): a person answers in the Pending
# Calls dock, or headless with the `toolstudio answer` command the run prints.
from toolstudio import ToolError

try:
    booking = weather__book_table(restaurant="Casa do Alentejo", people=4)
    print(booking["content"][0]["text"])
except ToolError as error:
    print(error.message)
