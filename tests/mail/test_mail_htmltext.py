"""The HTML-to-text converter used for HTML-only mail."""

from __future__ import annotations

import pytest

from adjudicator.mail import html_to_text


@pytest.mark.parametrize(
    ("html", "text"),
    [
        ("line 1<br>line 2<br/>line 3", "line 1\nline 2\nline 3"),
        ("<p>one</p><p>two</p>", "one\ntwo"),
        ("<div>one</div><div><br></div><div>three</div>", "one\n\nthree"),
        ("<ul><li>Mikasa</li><li>Asahi</li></ul>", "- Mikasa\n- Asahi"),
        ("<table><tr><td>A</td><td>B</td></tr><tr><th>C</th><td>D</td></tr></table>", "A B\nC D"),
        ("<h1>Title</h1>text", "Title\ntext"),
        ("a &amp; b &lt;c&gt; &#233;&eacute; &nbsp;x", "a & b <c> éé \xa0x"),
        ("  many   spaces\n\n and\tnew lines  ", "many spaces and new lines"),
        ("<pre>  two\n    indented</pre>", "  two\n    indented"),
        ("<style>p{}</style><script>var x = '<p>';</script>visible", "visible"),
        ("<head><title>hidden title</title></head><body>shown</body>", "shown"),
        ("<!-- a comment -->text", "text"),
        (
            "reply<blockquote>quoted 1<br>quoted 2</blockquote>after",
            "reply\n> quoted 1\n> quoted 2\nafter",
        ),
        ("<blockquote>a<blockquote>b</blockquote></blockquote>", "> a\n> > b"),
        ("<p>a</p><br><br><br><br><p>b</p>", "a\n\nb"),
        ("", ""),
    ],
)
def test_conversion(html: str, text: str) -> None:
    assert html_to_text(html) == text


@pytest.mark.parametrize(
    "html",
    [
        "<p",
        "<<<>>>",
        "</div></div><li>",
        "<a href='x>unclosed",
        "<script>never closed",
        "&#xffffffff; &bogus;",
    ],
)
def test_malformed_html_never_raises(html: str) -> None:
    assert isinstance(html_to_text(html), str)
