# The methods of tools/text.py are tools; each is a global function here.
words = count_words(text="the quick brown fox")
print("words:", words)
print(shout("hello", times=2))
