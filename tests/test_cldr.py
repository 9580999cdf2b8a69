"""Numbers and month names from the Unicode CLDR through Babel (issue 42,
point 2), written here as CLDR publishes them."""

from types import MappingProxyType

from setupgen.core import cldr, templates
from setupgen.core.templates import Texts


def test_decimal_marks_as_cldr_has_them():
    assert [cldr.decimal_mark(templates.texts(lang)) for lang in ("en", "de", "de-CH")] == [".", ",", "."]
    assert cldr.decimal("10.5", templates.texts("de")) == "10,5"
    assert cldr.decimal("107.78", templates.texts("de-CH")) == "107.78"
    assert cldr.decimal("3", templates.texts("de")) == "3"


def test_month_names_as_cldr_has_them():
    assert cldr.month_names(templates.texts("en")) == (
        "Jan",
        "Feb",
        "Mar",
        "Apr",
        "May",
        "Jun",
        "Jul",
        "Aug",
        "Sep",
        "Oct",
        "Nov",
        "Dec",
    )
    assert cldr.month_names(templates.texts("de"))[2:9] == ("März", "Apr.", "Mai", "Juni", "Juli", "Aug.", "Sept.")
    assert cldr.month_names(templates.texts("de-CH"))[11] == "Dez."


def test_a_language_cldr_does_not_know_takes_its_parents_else_the_root():
    child = Texts("xx-made-up", MappingProxyType({"inherits": "de"}))
    assert cldr.decimal_mark(child) == "," and cldr.month_names(child)[11] == "Dez."
    orphan = Texts("zz-nowhere", MappingProxyType({}))
    assert cldr.decimal_mark(orphan) == "." and cldr.month_names(orphan)[0] == "M01"
