// Closing-day engine and address normalizer benchmarks. Run with
// `swift run -c release mart-holiday-benchmarks [closing|address]` (both without an argument).
import MartCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let sections = CommandLine.arguments.count > 1 ? Set(CommandLine.arguments.dropFirst()) : ["closing", "address"]

/// Real closing-day texts from the brand sources, plus the spellings the engine reads.
let corpus = [
  "매월 둘째, 넷째주 일요일 (11/10, 11/24)",
  "9월 의무휴업안내(9/13(추석당일),9/22(일요일)",
  "※2/5(화요일) 설날 당일 휴무!! 2월10일 일요일 정상영업, 2월24일 정기휴무",
  "12/11,/25",
  "07/23(토), 07/24(일)",
  "정부시책에 의거 유통산업 발전법에 따라 매월 둘째, 넷째 일요일 의무 휴무합니다.*휴무일: 1/1, 설날, 추석 (전일은 오후 7시까지 영업) ※ 일산점은 2월 13일 (수요일) 정상영업 합니다.",
  "매월 둘째 수요일, 넷째 일요일 의무 휴무",
  "둘째,넷째주 수요일, 일요일",
  "(단, 매월 2,4번째 일요일 휴점)",
  "20261108, 20261122",
  "2019-11-10(일), 2019-11-24(일)",
  "03월 08일 / 03월 22일",
  "11월 12일(수)·26일(수)",
  "１２／２４～１２／２６",
  "연중무휴",
  "휴무일 정보가 없습니다",
  "진해점  T. 055-541-2500 | 운영시간 : 10:00~23:00  휴점일 : 9월 의무휴업안내(9/13(추석당일),9/22(일요일)",
]

let asOf = CalendarDate(year: 2026, month: 11, day: 22)!
let windowStart = asOf.firstOfMonth()
let windowEnd = asOf.firstOfMonth(addingMonths: 3).adding(days: -1)
let clock = ContinuousClock()

/// Runs `body` `iterations` times and prints the time per run.
func measure(_ name: String, iterations: Int, _ body: () -> Int) {
  var checksum = 0
  checksum &+= body()  // warm-up
  let elapsed = clock.measure {
    for _ in 0..<iterations { checksum &+= body() }
  }
  let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  let microseconds = (seconds / Double(iterations) * 1e6).rounded()
  print("\(name): \(Int(microseconds)) µs per run (\(iterations) runs, checksum \(checksum))")
}

if sections.contains("closing") {
  measure("corpus (\(corpus.count) texts), parse + 3-month expansion", iterations: 2_000) {
    var count = 0
    for text in corpus {
      count += ClosingSchedule.parse(text, asOf: asOf).closedDates(from: windowStart, through: windowEnd).count
    }
    return count
  }

  // A megabyte of mixed text: corpus texts, opening hours, notices, punctuation and digits.
  let filler = [
    " 영업시간 10:00~23:00 ", " 세일 두부 1+1 행사 ", " ((( ", " 2,000원 ", " 주차장 이용 안내 ", "\n",
    " 055-211-1234 ", " ))) ", " ABC mart 🛒 ", " 12/ ", " 둘째, ",
  ]
  var megabyte = ""
  var index = 0
  while megabyte.utf8.count < 1_000_000 {
    megabyte += corpus[index % corpus.count] + filler[index % filler.count]
    index += 1
  }
  print("mixed text: \(megabyte.utf8.count) bytes, \(megabyte.unicodeScalars.count) scalars")
  measure("1 MB of mixed text, parse + 3-month expansion", iterations: 10) {
    ClosingSchedule.parse(megabyte, asOf: asOf).closedDates(from: windowStart, through: windowEnd).count
  }
}

// Address normalization over store addresses of every province and shape (AddressCorpus.swift),
// repeated until at least a second has passed. The CPU-time rate is the one to compare on a
// machine shared with other work.
if sections.contains("address") {
  func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
  let addresses = addressCorpus()
  var rounds = 0
  var checksum = 0
  var seconds = 0.0
  let cpuStart = processCPUSeconds()
  while seconds < 1 {
    let elapsed = clock.measure {
      for (text, lotAddress) in addresses {
        checksum &+= KoreanAddress(parsing: text, lotAddress: lotAddress).queries.count
      }
    }
    seconds += Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    rounds += 1
  }
  let cpuSeconds = processCPUSeconds() - cpuStart
  let count = Double(addresses.count * rounds)
  print(
    "addresses (\(addresses.count) texts × \(rounds)), parse + queries: "
      + "\(Int((count / seconds).rounded())) addresses/s wall, \(Int((count / cpuSeconds).rounded())) addresses/s CPU "
      + "(checksum \(checksum))")
}
