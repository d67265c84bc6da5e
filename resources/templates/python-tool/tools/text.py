"""
title: Text tools
description: A Python tool file: each public method of class Tools is a tool.
"""


class Tools:
    def count_words(self, text: str) -> int:
        """Count the words in a text.

        :param text: The text to count the words of.
        """
        return len(text.split())

    def shout(self, text: str, times: int = 1) -> str:
        """Repeat a text in capitals.

        :param text: What to shout.
        :param times: How often.
        """
        return " ".join([text.upper()] * times)
