from __future__ import annotations

from retrieval import symbols


def test_lookup_exact_and_qualified():
    s = symbols.lookup("DataCopyPad")
    assert s is not None and s.page == "api/DataCopyPad" and s.namespace == "AscendC"
    assert symbols.lookup("AscendC::DataCopyPad").name == "DataCopyPad"
    assert symbols.lookup("DataCopyPad<half>()").name == "DataCopyPad"
    assert symbols.lookup("datacopypad").name == "DataCopyPad"
    assert symbols.lookup("NoSuchApi") is None


def test_overloads_come_from_the_signature_section():
    s = symbols.lookup("Add")
    assert len(s.overloads) == 3
    assert all("Add(" in o for o in s.overloads)
    assert any("BinaryRepeatParams" in o for o in s.overloads)
    assert s.summary.startswith("Element-wise sum")


def test_nearest_suggests_real_apis():
    assert symbols.nearest("DataCopyPadd")[0] == "DataCopyPad"
    assert "DataCopy" in symbols.nearest("DataCopyAsync")      # an alias listed by the page
    assert symbols.nearest("Exponential")[0] == "Exp"
    assert "ReduceSum" in symbols.nearest("ReduceSun")
    assert symbols.nearest("Add") == ["Add"]
    assert symbols.nearest("zzzzqqqq") == []


def test_complete_and_all():
    names = [s.name for s in symbols.complete("Reduce")]
    assert {"ReduceSum", "ReduceMax", "ReduceMin"} <= set(names)
    everything = symbols.all()
    assert len(everything) > 100
    assert len({s.name for s in everything}) == len(everything)
    d = symbols.lookup("Cast").to_dict()
    assert set(d) >= {"name", "namespace", "qualified", "page", "overloads", "summary"}


def test_in_query_detects_api_names():
    hits, whole = symbols.in_query("DataCopyPad")
    assert hits == ["DataCopyPad"] and whole
    hits, whole = symbols.in_query("why does DataCopy drop my tail elements")
    assert "DataCopy" in hits and not whole


def test_class_members_and_aliases_resolve():
    assert symbols.lookup("SetGlobalBuffer").qualified == "AscendC::GlobalTensor::SetGlobalBuffer"
    assert symbols.lookup("ReinterpretCast").page == "api/LocalTensor"
    assert symbols.nearest("DeQueue")[0] == "DeQue"        # alias resolved to the closest API of its page
    assert symbols.nearest("ReduceAdd")[0] == "ReduceSum"
    assert symbols.lookup("ReduceMean").page == "api/ReduceMean"  # a real high-level API now, not an alias
