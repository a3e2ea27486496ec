"""A Scrapy + lxml pipeline over the same sites, requests and fields as mart-holiday's sources
for the E-mart family (이마트, 트레이더스, 노브랜드, 에브리데이) and Homeplus (홈플러스, 익스프레스),
for side-by-side CPU measurements (Benchmarks/side-by-side.sh).

    python3 Benchmarks/scrapy/marts.py --emart http://127.0.0.1:PORT --homeplus http://127.0.0.1:PORT \
        --as-of 2026-11-20 --output /tmp/scrapy-branches.json

Each spider sends the requests the Swift source sends (store.emart.com: the three store lists,
the all-format list, three months of per-area holiday lists, the No Brand store pages;
my.homeplus.co.kr: the store list and one page per store), parses JSON with `json` and HTML with
lxml, and yields partial records; the pipeline merges them per branch, reads phones and the
closing dates, and writes one JSON file of every branch sorted by id.
"""

import argparse
import datetime
import json
import re
from urllib.parse import urlencode

import lxml.html
import scrapy
from scrapy.crawler import CrawlerProcess

AREA_CODES = ["A", "C", "I", "F", "Q", "O", "N", "D", "K", "J", "G", "B", "M", "L", "E", "H", "P"]
EMART_PREFIXES = {
    "emart": ["이마트 "],
    "traders": ["트레이더스 홀세일 클럽 ", "트레이더스 "],
    "nobrand": ["노브랜드 "],
    "everyday": ["이마트 에브리데이 ", "에브리데이 "],
}
PHONE = re.compile(r"(0\d{1,2})[-. )]*(\d{3,4})[-. ]*(\d{4})")
TIME_RANGE = re.compile(r"(\d{1,2}):(\d{2})\s*[~\-–]\s*(\d{1,2}):(\d{2})")
YMD = re.compile(r"^(\d{4})(\d{2})(\d{2})$")
MONTH_DAY = re.compile(r"(\d{1,2})/(\d{1,2})")


def months(as_of, count=3):
    year, month = as_of.year, as_of.month
    for _ in range(count):
        yield year, month
        month += 1
        if month > 12:
            year, month = year + 1, 1


def text(value):
    if value is None:
        return None
    value = str(value).strip()
    return value or None


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def emart_brand(store_type, name):
    if name.startswith("에브리데이") or name.startswith("이마트 에브리데이"):
        return "everyday"
    if store_type == "T" or name.startswith("트레이더스"):
        return "traders"
    if store_type == "S" or name.startswith("노브랜드"):
        return "nobrand"
    if store_type in ("A", "E"):
        return "emart"
    return None


def strip_prefix(name, brand):
    for prefix in EMART_PREFIXES.get(brand, []):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


class EmartSpider(scrapy.Spider):
    name = "emart"

    def __init__(self, base, as_of, **kwargs):
        super().__init__(**kwargs)
        self.base = base.rstrip("/")
        self.as_of = as_of

    def form(self, path, fields, callback, **meta):
        return scrapy.Request(
            self.base + path, method="POST", body=urlencode(fields),
            headers={"Content-Type": "application/x-www-form-urlencoded; charset=UTF-8"},
            callback=callback, meta=meta, dont_filter=True)

    async def start(self):
        for request in self.requests():
            yield request

    def requests(self):
        year, month = self.as_of.year, self.as_of.month
        for search_type in ("EM", "TR", "NO"):
            yield self.form("/branch/searchList.do", [
                ("srchMode", "jijum"), ("year", str(year)), ("month", f"{month:02d}"), ("jMode", "true"),
                ("strConfirmYN", "N"), ("searchType", search_type), ("keyword", "")], self.parse_master)
        yield self.form("/branch/searchList.do", [
            ("srchMode", "jijum"), ("year", str(year)), ("month", str(month)), ("areaId", ""), ("jMode", "true"),
            ("strConfirmYN", "N")], self.parse_master, everyday=True)
        for year, month in months(self.as_of):
            for area in AREA_CODES:
                yield self.form("/branch/holidayList.do", [
                    ("areaCd", area), ("year", str(year)), ("month", f"{month:02d}"), ("keyword", "")],
                    self.parse_holidays)

    def parse_master(self, response):
        for row in json.loads(response.body).get("dataList", []):
            name = text(row.get("NAME"))
            store_id = text(row.get("ID"))
            if not name or not store_id:
                continue
            brand = emart_brand(text(row.get("STORE_TP")) or "", name)
            if brand is None or (response.meta.get("everyday") and brand != "everyday"):
                continue
            if not response.meta.get("everyday") and brand == "everyday":
                continue
            yield {
                "id": f"{brand}-{store_id}", "brand": brand, "name": strip_prefix(name, brand),
                "address": text(row.get("ADDRESS1")), "lotAddress": text(row.get("ADDRESS3")),
                "phonePublished": text(row.get("TEL")), "openingHours": text(row.get("STORE_SHOPPING_TIME")),
                "latitude": number(row.get("MAP_X")), "longitude": number(row.get("MAP_Y")),
                "sourceURL": response.url,
            }
            if brand == "nobrand":
                yield scrapy.Request(
                    f"{self.base}/branch/view.do?id={store_id}", callback=self.parse_view,
                    meta={"id": f"{brand}-{store_id}"})

    def parse_holidays(self, response):
        for row in json.loads(response.body).get("dateList", []):
            name = text(row.get("NAME")) or ""
            store_id = text(row.get("JIJUM_ID"))
            brand = emart_brand("", name) or "emart"
            if not store_id:
                continue
            dates = []
            for key in ("HOLIDAY_DAY1_YMD", "HOLIDAY_DAY2_YMD", "HOLIDAY_DAY3_YMD"):
                match = YMD.match(text(row.get(key)) or "")
                if match:
                    dates.append("-".join(match.groups()))
            yield {"holidayName": name, "storeID": store_id, "brandGuess": brand, "dates": dates}

    def parse_view(self, response):
        document = lxml.html.fromstring(response.body)
        cells = document.xpath('//*[contains(concat(" ", normalize-space(@class), " "), " intro-wrap ")]/ul/li[3]/p')
        phone = cells[0].text_content().strip() if cells else None
        yield {"id": response.meta["id"], "pagePhone": phone, "pageURL": response.url}


class HomeplusSpider(scrapy.Spider):
    name = "homeplus"
    fields = [
        ("viewHomeplus", "H"), ("viewExpress", "E"), ("viewPlus", ""), ("viewSpecial", "S"), ("draw", "1"),
        ("pageSize", "999"), ("sortFlag", "N"), ("searchRegion", ""), ("locatePage", "N"), ("searchStoreNm", ""),
    ]

    def __init__(self, base, as_of, **kwargs):
        super().__init__(**kwargs)
        self.base = base.rstrip("/")
        self.as_of = as_of

    async def start(self):
        yield scrapy.Request(
            self.base + "/store/get_list", method="POST", body=urlencode(self.fields),
            headers={
                "Content-Type": "application/x-www-form-urlencoded; charset=UTF-8",
                "X-Requested-With": "XMLHttpRequest", "Referer": self.base + "/store",
            }, callback=self.parse_list, dont_filter=True)

    def parse_list(self, response):
        body = json.loads(response.body)
        for row in body.get("data") or body.get("rows") or []:
            store_id = text(row.get("storId")) or text(row.get("storCd"))
            name = text(row.get("storKorNm"))
            kind = (text(row.get("storDivCd")) or "").upper()
            brand = {"H": "homeplus", "S": "homeplus", "E": "homeplus-express"}.get(kind)
            if not store_id or not name or not brand:
                continue
            branch_id = f"{brand}-{store_id}"
            yield {
                "id": branch_id, "brand": brand, "name": re.sub(r"^홈플러스\s*(스페셜|익스프레스)?\s*", "", name),
                "banner": "홈플러스 스페셜" if kind == "S" or name.startswith("홈플러스 스페셜") else None,
                "address": text(row.get("storAddr")), "phonePublished": text(row.get("storTphnNo")),
                "openingHours": text(row.get("storSlesTime")), "closingText": text(row.get("storDayoffCntt")),
                "latitude": number(row.get("storLat")), "longitude": number(row.get("storLon")),
                "sourceURL": response.url,
            }
            yield scrapy.Request(
                f"{self.base}/store/store_detail?storId={store_id}", callback=self.parse_detail,
                meta={"id": branch_id})

    def parse_detail(self, response):
        if not response.body.strip():
            return
        document = lxml.html.fromstring(response.body)
        lists = document.xpath('//dl[contains(concat(" ", normalize-space(@class), " "), " shop_detail_01 ")]')
        if not lists:
            return
        cells = [cell.text_content().strip() for cell in lists[0].xpath(".//dd")]

        def cell(index):
            return cells[index] if index < len(cells) and cells[index] else None

        address = cell(4)
        if address and address.endswith("길 찾기"):
            address = address[: -len("길 찾기")].strip()
        yield {
            "id": response.meta["id"], "openingHours": cell(0), "closingText": cell(1), "pagePhone": cell(2),
            "address": address, "pageURL": response.url,
        }


class MergePipeline:
    """Collects the partial records of every spider of the process (see `write`)."""

    branches = {}
    holidays = {}

    def process_item(self, item):
        if "storeID" in item:
            MergePipeline.holidays.setdefault(item["storeID"], set()).update(item["dates"])
            return item
        record = MergePipeline.branches.setdefault(item["id"], {})
        for key, value in item.items():
            if value is not None or key not in record:
                record[key] = value
        return item


def write(output, as_of):
    """Merges the partial records per branch and writes every branch, sorted by id."""
    out = []
    for branch_id in sorted(MergePipeline.branches):
        record = MergePipeline.branches[branch_id]
        brand = record.get("brand", "")
        store_id = branch_id[len(brand) + 1:]
        published = record.get("pagePhone") or record.get("phonePublished")
        match = PHONE.search(published or "")
        record["phone"] = "-".join(match.groups()) if match else None
        hours = TIME_RANGE.search(record.get("openingHours") or "")
        record["hours"] = {"open": f"{int(hours[1]):02d}:{hours[2]}", "close": f"{int(hours[3]):02d}:{hours[4]}"} \
            if hours else None
        dates = set(MergePipeline.holidays.get(store_id, ())) if brand in EMART_PREFIXES else set()
        for month, day in MONTH_DAY.findall(record.get("closingText") or ""):
            year = as_of.year + (1 if int(month) < as_of.month else 0)
            try:
                dates.add(datetime.date(year, int(month), int(day)).isoformat())
            except ValueError:
                pass
        record["closingDates"] = sorted(dates)
        out.append(record)
    with open(output, "w", encoding="utf-8") as file:
        json.dump({"asOf": as_of.isoformat(), "branches": out}, file, ensure_ascii=False, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--emart", help="base URL serving store.emart.com")
    parser.add_argument("--homeplus", help="base URL serving my.homeplus.co.kr")
    parser.add_argument("--as-of", required=True)
    parser.add_argument("--output", required=True)
    arguments = parser.parse_args()
    as_of = datetime.date.fromisoformat(arguments.as_of)
    process = CrawlerProcess(settings={
        "ROBOTSTXT_OBEY": False, "DOWNLOAD_DELAY": 0, "LOG_LEVEL": "WARNING", "TELNETCONSOLE_ENABLED": False,
        "COOKIES_ENABLED": False, "HTTPCACHE_ENABLED": False, "RETRY_TIMES": 0,
        "CONCURRENT_REQUESTS": 16, "CONCURRENT_REQUESTS_PER_DOMAIN": 8,
        "ITEM_PIPELINES": {MergePipeline: 100},
    })
    if arguments.emart:
        process.crawl(EmartSpider, base=arguments.emart, as_of=as_of)
    if arguments.homeplus:
        process.crawl(HomeplusSpider, base=arguments.homeplus, as_of=as_of)
    process.start()
    write(arguments.output, as_of)


if __name__ == "__main__":
    main()
