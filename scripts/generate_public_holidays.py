#!/usr/bin/env python3
"""Generates Sources/MartCore/ClosingDays/KoreanPublicHolidays.generated.swift.

Korean public holidays (공휴일) for 2000–2050, each with its name, why it is a holiday and
the law or proclamation behind it:

- fixed solar days and the lunar days (설날·추석 three days, 부처님오신날) named by
  「공휴일에 관한 법률」 and 「관공서의 공휴일에 관한 규정」 제2조, for the years each was a
  holiday (식목일 to 2005, 제헌절 to 2007 and again from 2026, 한글날 from 2013, 노동절 from
  2026);
- substitute holidays (대체공휴일, 규정 제3조) by the rule in force on the holiday's date, as the
  규정 reads since its 2026 amendment (대통령령 제36290호, 2026-04-30, in force 2026-05-11: 노동절
  and 제헌절 get a substitute when they fall on a Saturday, a Sunday or another holiday);
- one-off days: election days and temporary holidays (임시공휴일), as proclaimed up to
  ONE_OFFS_CHECKED_THROUGH. Later one-off days cannot be foreseen.

Lunar dates come from the `korean-lunar-calendar` package (KASI tables), as for
generate_lunar_holidays.py.

Regenerate with:
    pip install -r scripts/requirements-lunar.txt
    python3 scripts/generate_public_holidays.py
"""

import datetime
import pathlib

from korean_lunar_calendar import KoreanLunarCalendar

FIRST_YEAR = 2000
LAST_YEAR = 2050
# The day the one-off list below was last checked against the proclamations.
ONE_OFFS_CHECKED_THROUGH = datetime.date(2026, 11, 25)
OUTPUT = (pathlib.Path(__file__).resolve().parent.parent
          / "Sources/MartCore/ClosingDays/KoreanPublicHolidays.generated.swift")

# Sources, by key. Each generated holiday names one.
SOURCES = {
    "law": "공휴일에 관한 법률 제2조 (2021-07-07 제정); 관공서의 공휴일에 관한 규정 제2조",
    "treeDay": "관공서의 공휴일에 관한 규정 제2조 (식목일: 2006년부터 제외)",
    "constitution2007": "관공서의 공휴일에 관한 규정 제2조 (제헌절: 2008년부터 제외)",
    "constitution2026": "공휴일에 관한 법률 개정 (2026-01-29 국회 의결, 2026-02-10 공포: 모든 국경일이 공휴일)",
    "hangul2013": "관공서의 공휴일에 관한 규정 제2조 (한글날: 2013년부터 다시 공휴일)",
    "labor2026": "공휴일에 관한 법률 개정 (노동절: 2026-03-31 국회 의결, 2026-04-07 국무회의, 2026-05-01 시행)",
    "sub2014": "관공서의 공휴일에 관한 규정 제3조 (2013-11-05 개정, 2014년 시행: 설·추석 연휴, 어린이날)",
    "sub2021": "관공서의 공휴일에 관한 규정 제3조 (2021-08-04 개정: 삼일절·광복절·개천절·한글날)",
    "sub2023": "관공서의 공휴일에 관한 규정 제3조 (2023-05-04 개정: 부처님오신날·기독탄신일)",
    "sub2026": "관공서의 공휴일에 관한 규정 제3조 (대통령령 제36290호, 2026-04-30 개정, 2026-05-11 시행: 노동절·제헌절)",
    "election": "공직선거법 제34조 (임기만료에 의한 선거의 선거일); 관공서의 공휴일에 관한 규정 제2조",
    "early2017": "대통령 궐위에 의한 선거 (헌법 제68조 제2항), 선거일 임시공휴일 지정 (2017)",
    "early2025": "대통령 궐위에 의한 선거, 선거일 임시공휴일 지정 (2025-04-08 국무회의)",
    "temp2002": "임시공휴일 (2002 FIFA 월드컵 4강 진출 기념)",
    "temp2015": "임시공휴일 (광복 70주년, 2015-08 국무회의 의결)",
    "temp2016": "임시공휴일 (2016-05-06, 국무회의 의결)",
    "temp2017": "임시공휴일 (2017-10-02, 국무회의 의결)",
    "temp2020": "임시공휴일 (2020-07-21 국무회의 의결)",
    "temp2023": "임시공휴일 (2023-09 국무회의 의결)",
    "temp2024": "임시공휴일 (국군의 날, 2024-09-03 국무회의 의결)",
    "temp2025": "임시공휴일 (설 연휴 전날, 2025-01-14 국무회의 의결)",
}

# One-off days: (date, name, source key). Regular election days are set by 공직선거법 제34조;
# the dates below are the days the elections were held (or, for 2026-06-03, proclaimed).
ONE_OFFS = [
    ((2000, 4, 13), "제16대 국회의원 선거일", "election"),
    ((2002, 6, 13), "제3회 전국동시지방선거일", "election"),
    ((2002, 7, 1), "임시공휴일", "temp2002"),
    ((2002, 12, 19), "제16대 대통령 선거일", "election"),
    ((2004, 4, 15), "제17대 국회의원 선거일", "election"),
    ((2006, 5, 31), "제4회 전국동시지방선거일", "election"),
    ((2007, 12, 19), "제17대 대통령 선거일", "election"),
    ((2008, 4, 9), "제18대 국회의원 선거일", "election"),
    ((2010, 6, 2), "제5회 전국동시지방선거일", "election"),
    ((2012, 4, 11), "제19대 국회의원 선거일", "election"),
    ((2012, 12, 19), "제18대 대통령 선거일", "election"),
    ((2014, 6, 4), "제6회 전국동시지방선거일", "election"),
    ((2015, 8, 14), "임시공휴일", "temp2015"),
    ((2016, 4, 13), "제20대 국회의원 선거일", "election"),
    ((2016, 5, 6), "임시공휴일", "temp2016"),
    ((2017, 5, 9), "제19대 대통령 선거일", "early2017"),
    ((2017, 10, 2), "임시공휴일", "temp2017"),
    ((2018, 6, 13), "제7회 전국동시지방선거일", "election"),
    ((2020, 4, 15), "제21대 국회의원 선거일", "election"),
    ((2020, 8, 17), "임시공휴일", "temp2020"),
    ((2022, 3, 9), "제20대 대통령 선거일", "election"),
    ((2022, 6, 1), "제8회 전국동시지방선거일", "election"),
    ((2023, 10, 2), "임시공휴일", "temp2023"),
    ((2024, 4, 10), "제22대 국회의원 선거일", "election"),
    ((2024, 10, 1), "임시공휴일 (국군의 날)", "temp2024"),
    ((2025, 1, 27), "임시공휴일", "temp2025"),
    ((2025, 6, 3), "제21대 대통령 선거일", "early2025"),
    ((2026, 6, 3), "제9회 전국동시지방선거일", "election"),
]

# When each substitute rule took effect, by holiday, and its source. A holiday on or after the
# date gets a substitute when it falls on one of the listed weekdays or on another holiday.
SATURDAY, SUNDAY = 5, 6
SUBSTITUTE_RULES = {
    # 설·추석 연휴: Sunday or another holiday (Saturday does not count).
    "설날": (datetime.date(2014, 1, 1), {SUNDAY}, "sub2014"),
    "추석": (datetime.date(2014, 1, 1), {SUNDAY}, "sub2014"),
    "어린이날": (datetime.date(2014, 1, 1), {SATURDAY, SUNDAY}, "sub2014"),
    "삼일절": (datetime.date(2021, 8, 4), {SATURDAY, SUNDAY}, "sub2021"),
    "광복절": (datetime.date(2021, 8, 4), {SATURDAY, SUNDAY}, "sub2021"),
    "개천절": (datetime.date(2021, 8, 4), {SATURDAY, SUNDAY}, "sub2021"),
    "한글날": (datetime.date(2021, 8, 4), {SATURDAY, SUNDAY}, "sub2021"),
    "부처님오신날": (datetime.date(2023, 5, 4), {SATURDAY, SUNDAY}, "sub2023"),
    "기독탄신일": (datetime.date(2023, 5, 4), {SATURDAY, SUNDAY}, "sub2023"),
    # 규정 제3조 as amended by 대통령령 제36290호 (2026-04-30, in force 2026-05-11). The 2027
    # 월력요항 (우주항공청, 2026-06-29) lists 2027-05-03 as 대체공휴일(노동절) and 2027-07-19 as
    # 대체공휴일(제헌절), as this rule gives.
    "노동절": (datetime.date(2026, 5, 11), {SATURDAY, SUNDAY}, "sub2026"),
    "제헌절": (datetime.date(2026, 5, 11), {SATURDAY, SUNDAY}, "sub2026"),
}
# Holidays whose substitute rule the law leaves open, with the day it would start: the day such a
# substitute would fall on is unsettled, neither a holiday nor not. None since the 2026 amendment.
UNSETTLED_SUBSTITUTES: dict[str, tuple[datetime.date, set[int]]] = {}


def lunar(year: int, month: int, day: int) -> datetime.date:
    calendar = KoreanLunarCalendar()
    if not calendar.setLunarDate(year, month, day, False):
        raise SystemExit(f"no solar date for lunar {year}-{month}-{day}")
    return datetime.date(calendar.solarYear, calendar.solarMonth, calendar.solarDay)


def regular_holidays(year: int) -> list[tuple[datetime.date, str, str, str]]:
    """(date, name, kind, source) of the holidays the law names for `year`, before substitutes.

    The `name` of the three days of 설날 and 추석 is the holiday's (설날, 추석); the day's own
    name is kept apart by `day_names`."""
    days = []

    def fixed(month: int, day: int, name: str, source: str = "law") -> None:
        days.append((datetime.date(year, month, day), name, "fixed", source))

    fixed(1, 1, "1월 1일")
    fixed(3, 1, "삼일절")
    if year <= 2005:
        fixed(4, 5, "식목일", "treeDay")
    if year >= 2026:
        fixed(5, 1, "노동절", "labor2026")
    fixed(5, 5, "어린이날")
    fixed(6, 6, "현충일")
    if year <= 2007:
        fixed(7, 17, "제헌절", "constitution2007")
    elif year >= 2026:
        fixed(7, 17, "제헌절", "constitution2026")
    fixed(8, 15, "광복절")
    fixed(10, 3, "개천절")
    if year >= 2013:
        fixed(10, 9, "한글날", "hangul2013")
    fixed(12, 25, "기독탄신일")
    days.append((lunar(year, 4, 8), "부처님오신날", "lunar", "law"))
    for name, month in (("설날", 1), ("추석", 8)):
        day = lunar(year, month, 1 if month == 1 else 15)
        for offset in (-1, 0, 1):
            days.append((day + datetime.timedelta(days=offset), name, "lunar", "law"))
    return days


def day_name(name: str, date: datetime.date, lunar_day: datetime.date | None) -> str:
    if lunar_day is None or date == lunar_day:
        return name
    return f"{name} 전날" if date < lunar_day else f"{name} 다음날"


def holidays(year: int) -> tuple[list[dict], dict[datetime.date, str]]:
    """The holidays of `year` in date order, and the unsettled days with why."""
    regular = regular_holidays(year)
    lunar_days = {"설날": lunar(year, 1, 1), "추석": lunar(year, 8, 15)}
    entries = [
        {"date": d, "name": day_name(n, d, lunar_days.get(n)), "holiday": n, "kind": k, "source": s}
        for d, n, k, s in regular
    ]
    for (y, m, d), name, source in ONE_OFFS:
        if y == year:
            entries.append({"date": datetime.date(y, m, d), "name": name, "holiday": name, "kind": "one-off",
                            "source": source})
    taken = {}
    for entry in entries:
        taken.setdefault(entry["date"], []).append(entry)

    def is_free(day: datetime.date) -> bool:
        # 비공휴일: not a Sunday, not a holiday, and (규정 제3조제3항) not a Saturday either.
        return day.weekday() not in (SATURDAY, SUNDAY) and day not in taken

    substitutes = []
    unsettled = {}
    # Day by day: a substitute placed earlier is a holiday for the ones after it. A day with two
    # holidays (어린이날 and 부처님오신날 on 2025-05-05) gives one substitute, as observed.
    for date in sorted(taken):
        active = [e for e in taken[date]
                  if e["holiday"] in SUBSTITUTE_RULES and date >= SUBSTITUTE_RULES[e["holiday"]][0]]
        triggers = [e for e in active
                    if date.weekday() in SUBSTITUTE_RULES[e["holiday"]][1] or len(taken[date]) > 1]
        if not triggers:
            continue
        entry = triggers[0]
        # The substitute follows the holiday; for 설·추석, the whole three days.
        day = date
        if entry["holiday"] in lunar_days:
            day = lunar_days[entry["holiday"]] + datetime.timedelta(days=1)
        day += datetime.timedelta(days=1)
        while not is_free(day):
            day += datetime.timedelta(days=1)
        substitute = {"date": day, "name": f"대체공휴일({entry['holiday']})", "holiday": entry["holiday"],
                      "kind": "substitute", "source": SUBSTITUTE_RULES[entry["holiday"]][2], "for": entry["name"],
                      "forDate": date}
        taken.setdefault(day, []).append(substitute)
        substitutes.append(substitute)
    for name, (since, weekdays) in UNSETTLED_SUBSTITUTES.items():
        for entry in entries:
            if entry["holiday"] == name and entry["date"] >= since and (
                    entry["date"].weekday() in weekdays or len(taken[entry["date"]]) > 1):
                day = entry["date"] + datetime.timedelta(days=1)
                while not is_free(day):
                    day += datetime.timedelta(days=1)
                unsettled[day] = (f"{name} {entry['date'].isoformat()} falls on a weekend or another holiday;"
                                  f" whether the substitute-holiday rule covers {name} is not confirmed")
    return sorted(entries + substitutes, key=lambda e: (e["date"], e["kind"] != "fixed")), unsettled


def swift_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def swift_date(date: datetime.date) -> str:
    return f"d({date.year}, {date.month}, {date.day})"


def main() -> None:
    # Regular elections fall on a Wednesday since the 2004-03-12 amendment of 공직선거법 제34조
    # (a Thursday before it).
    for (y, m, d), name, source in ONE_OFFS:
        if source == "election" and y >= 2005:
            assert datetime.date(y, m, d).weekday() == 2, (y, m, d, name)
    rows = []
    unsettled_rows = []
    for year in range(FIRST_YEAR, LAST_YEAR + 1):
        entries, unsettled = holidays(year)
        for entry in entries:
            fields = [entry["date"].isoformat(), entry["kind"], entry["source"], entry["name"]]
            if entry["kind"] == "substitute":
                fields += [entry["for"], entry["forDate"].isoformat()]
            assert all("|" not in field and "\\" not in field and '"' not in field for field in fields), fields
            rows.append("    " + "|".join(fields))
        for day, why in sorted(unsettled.items()):
            unsettled_rows.append(f"    {swift_date(day)}: {swift_string(why)},")
    source_cases = "\n".join(
        f"  static let {key} = PublicHoliday.Source({swift_string(text)})" for key, text in SOURCES.items())
    source_keys = "\n".join(f'    "{key}": .{key},' for key in SOURCES)
    checked = ONE_OFFS_CHECKED_THROUGH
    unsettled_literal = "[\n" + "\n".join(unsettled_rows) + "\n  ]" if unsettled_rows else "[:]"
    QUOTES = '"' * 3
    source = f"""// Generated by scripts/generate_public_holidays.py (lunar dates from the
// korean-lunar-calendar package, KASI data). Do not edit by hand; rerun the script instead.

extension KoreanPublicHolidays {{
  /// First and last years covered by the table.
  static let coveredYears = {FIRST_YEAR}...{LAST_YEAR}

  /// The day the one-off days (elections, temporary holidays) were last checked: one-off days
  /// proclaimed after it are not in the table.
  static let oneOffsCheckedThrough = CalendarDate(year: {checked.year}, month: {checked.month}, day: {checked.day})!

  /// Every public holiday of the covered years, in date order.
  static let table = PublicHoliday.readTable(tableRows, sources: sources)

  /// The table as text, a holiday a line: `date|kind|source|name`, and for a substitute
  /// `|holiday it stands for|that holiday's date`. Text, not an array literal of initializers:
  /// type-checking such a literal of this length takes the compiler about 20 s and 11 GB.
  private static let tableRows = {QUOTES}
{chr(10).join(rows)}
    {QUOTES}

  /// Days whose status the law leaves open, with why.
  static let unsettledDays: [CalendarDate: String] = {unsettled_literal}
}}

private func d(_ year: Int, _ month: Int, _ day: Int) -> CalendarDate {{
  CalendarDate(year: year, month: month, day: day)!
}}

extension PublicHoliday.Source {{
{source_cases}
}}

extension KoreanPublicHolidays {{
  /// The sources the table's rows name, by key.
  fileprivate static let sources: [String: PublicHoliday.Source] = [
{source_keys}
  ]
}}
"""
    OUTPUT.write_text(source, encoding="utf-8")
    print(f"wrote {OUTPUT}")


if __name__ == "__main__":
    main()
