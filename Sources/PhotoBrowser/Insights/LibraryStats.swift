import Foundation
import PhotoPickFormats

/// Where the photos listed stand in culling, from their marks: the cull header, `ls --summary`.
package struct CullSummary: Sendable, Equatable, Codable {
    /// Photos counted, and those picked, rejected, rated (one star or more), labelled, and carrying no mark.
    package var photos = 0, picked = 0, rejected = 0, rated = 0, labelled = 0, untouched = 0

    /// Photos with some mark.
    package var touched: Int { photos - untouched }
}

extension CullSummary {
    /// The marks of the photos at `indices`.
    init(_ indices: some Sequence<Int>, library: PhotoLibrary, tags: TagCatalog) {
        var listed = Bitset(count: library.columns.count, filled: false)
        for index in indices { _ = listed.insert(index) }
        self = MarkCounts(listed, library: library, tags: tags).summary
    }
}

/// The marks of a set of photos, from the tags' sets of photos: a few passes over words, not a lookup
/// per photo, so the cull header counts a million photos in milliseconds. A photo is rated by its
/// highest rating tag, and a pick and a reject on one photo count as a pick, as its marks read.
struct MarkCounts {
    var summary = CullSummary()
    /// Photos with each number of stars, 0 for unrated.
    var stars = [Int](repeating: 0, count: 6)
    /// Photos with each label, in `Mark.ColourLabel.allCases` order.
    var labels: [Int] = []

    init(_ listed: Bitset, library: PhotoLibrary, tags: TagCatalog) {
        func photos(with mark: Mark) -> Bitset {
            guard let id = tags.tagID(of: mark) else { return Bitset() }
            var set = library.tags.photos(with: id)
            set.formIntersection(listed)
            return set
        }
        let picked = photos(with: .flag(.pick))
        var rejected = photos(with: .flag(.reject))
        rejected.subtract(picked)
        var rated = Bitset()
        for star in stride(from: 5, through: 1, by: -1) {
            var set = photos(with: .rating(star))
            set.subtract(rated)
            stars[star] = set.count
            rated.formUnion(set)
        }
        var labelled = Bitset()
        labels = Mark.ColourLabel.allCases.map { label in
            let set = photos(with: .label(label))
            labelled.formUnion(set)
            return set.count
        }
        var touched = picked
        touched.formUnion(rejected)
        touched.formUnion(rated)
        touched.formUnion(labelled)
        let count = listed.count
        stars[0] = count - rated.count
        summary = CullSummary(
            photos: count, picked: picked.count, rejected: rejected.count, rated: rated.count, labelled: labelled.count,
            untouched: count - touched.count
        )
    }
}

/// The photos of a filter in figures, from the catalogue alone: per day, camera, lens, focal length,
/// ISO, aperture, rating, flag and label, each with the query term that filters to it.
package struct LibraryStats: Sendable, Equatable {
    /// One bar: what it counts, how many, and the term that lists those photos (nil when no term can,
    /// as for photos with no camera recorded).
    package struct Bar: Sendable, Equatable, Codable {
        package var label: String
        package var count: Int
        package var term: String?
    }

    /// Photos counted, and where they stand in culling.
    package var summary = CullSummary()
    /// Photos per day taken, by day number (days since 1970-01-01 in the time zone shown); photos with
    /// no capture time are `undated`.
    package var days: [Int: Int] = [:]
    package var undated = 0
    package var cameras: [Bar] = [], lenses: [Bar] = [], focalLengths: [Bar] = [], isos: [Bar] = [], apertures: [Bar] = []
    package var ratings: [Bar] = [], flags: [Bar] = [], labels: [Bar] = []

    /// Steps a timeline is drawn in, finest first.
    package enum Step: String, Sendable, CaseIterable, Codable {
        case day, month, year
    }

    /// Photos per `step`, every step from the first photo's to the last's (empty ones too, so a gap in
    /// the shooting shows), oldest first, each with its `taken:` term.
    package func timeline(_ step: Step) -> [Bar] {
        guard let first = days.keys.min(), let last = days.keys.max() else { return [] }
        func key(_ day: Int) -> Int {
            let date = CivilDate(day: day)
            return switch step {
            case .day: day
            case .month: date.year * 12 + date.month - 1
            case .year: date.year
            }
        }
        var counts: [Int: Int] = [:]
        for (day, count) in days { counts[key(day), default: 0] += count }
        return (key(first)...key(last)).map { bucket in
            let label = switch step {
            case .day: CivilDate(day: bucket).text
            case .month: String(format: "%04d-%02d", bucket / 12, bucket % 12 + 1)
            case .year: String(format: "%04d", bucket)
            }
            return Bar(label: label, count: counts[bucket] ?? 0, term: "taken:\(label)")
        }
    }

    /// "2024-06-01" for a day number.
    package static func dayText(_ day: Int) -> String { CivilDate(day: day).text }

    /// The months with photos, oldest first, each with its `taken:` term.
    package func months() -> [Bar] {
        timeline(.month).filter { $0.count > 0 }
    }

    /// The finest step whose timeline has at most `bars` bars (years when none does).
    package func step(fitting bars: Int) -> Step {
        guard let first = days.keys.min(), let last = days.keys.max() else { return .day }
        let (start, end) = (CivilDate(day: first), CivilDate(day: last))
        if last - first + 1 <= bars { return .day }
        if (end.year - start.year) * 12 + end.month - start.month + 1 <= bars { return .month }
        return .year
    }
}

/// A day of the proleptic Gregorian calendar from its number (days since 1970-01-01), by the integer
/// steps ISO 8601's dates are read with, where a `Calendar` call per photo would be most of a chart's time.
struct CivilDate: Equatable {
    let year: Int, month: Int, day: Int

    init(day number: Int) {
        (year, month, day) = ISO8601.civil(fromDays: number)
    }

    /// "2024-06-01".
    var text: String { String(format: "%04d-%02d-%02d", year, month, day) }
}

extension LibraryStats {
    /// The upper ends of the ranges figures are counted in, each range running from above the one
    /// before: focal lengths as lenses are named (millimetres), ISO in stops, apertures in full stops.
    /// A figure of 0 or none is "not recorded"; above the last end is the last range.
    static let focalEnds: [Double] = [15, 20, 28, 35, 50, 70, 105, 135, 200, 300]
    static let isoEnds: [Double] = [100, 200, 400, 800, 1600, 3200, 6400, 12800]
    static let apertureEnds: [Double] = [1.4, 2, 2.8, 4, 5.6, 8, 11]

    /// The range `value` falls in: the first whose end it does not pass, else the one past the last end.
    static func range(of value: Double, _ ends: [Double]) -> Int {
        ends.firstIndex { value <= $0 } ?? ends.count
    }

    /// The figures of the photos at `indices` of `library`, marks read through `tags`, days in `timeZone`.
    init(_ indices: some Collection<Int>, library: PhotoLibrary, tags: TagCatalog, timeZone: TimeZone) {
        let columns = library.columns
        var listed = Bitset(count: columns.count, filled: false)
        var cameras: [Int64: Int] = [:], lenses: [Int32: Int] = [:]
        var focal = [Int](repeating: 0, count: Self.focalEnds.count + 1), iso = [Int](repeating: 0, count: Self.isoEnds.count + 1)
        var aperture = [Int](repeating: 0, count: Self.apertureEnds.count + 1)
        var noFocal = 0, noISO = 0, noAperture = 0
        // The zone's offset changes only at its transitions, on a quarter hour: kept per quarter hour.
        var offsets: [Int: Int] = [:]
        for index in indices {
            _ = listed.insert(index)
            let taken = columns.takenAt[index]
            if taken.isNaN {
                undated += 1
            } else {
                let quarter = Int((taken / 900).rounded(.down))
                let offset = offsets[quarter] ?? {
                    let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(quarter) * 900))
                    offsets[quarter] = offset
                    return offset
                }()
                days[Int(((taken + Double(offset)) / 86_400).rounded(.down)), default: 0] += 1
            }
            cameras[Int64(columns.cameraMake[index]) << 32 | Int64(columns.cameraModel[index]), default: 0] += 1
            lenses[columns.lens[index], default: 0] += 1
            let focalLength = columns.focalLength[index], speed = columns.iso[index], fNumber = columns.fNumber[index]
            // The figures as stored, so each range's term (`focal>20 focal<=28`) lists exactly its photos.
            if focalLength > 0 { focal[Self.range(of: focalLength, Self.focalEnds)] += 1 } else { noFocal += 1 }
            if speed > 0 { iso[Self.range(of: Double(speed), Self.isoEnds)] += 1 } else { noISO += 1 }
            if fNumber > 0 { aperture[Self.range(of: fNumber, Self.apertureEnds)] += 1 } else { noAperture += 1 }
        }
        let pool = columns.pool
        // A bar per name shown ("NIKON Z 6" from two spellings of the maker is one), its term the exact
        // model (`camera="GR III"` lists no GR IIIx).
        var byCamera: [String: (count: Int, term: String?)] = [:]
        for (key, count) in cameras {
            let make = pool[Int32(truncatingIfNeeded: key >> 32)] ?? "", model = pool[Int32(truncatingIfNeeded: key)] ?? ""
            // "RICOH GR III", not "RICOH IMAGING COMPANY, LTD. RICOH GR III": a model that starts with its
            // maker's first word names both.
            let brand = make.split(separator: " ").first.map { $0.lowercased() } ?? ""
            let name = (make.isEmpty || model.lowercased().hasPrefix(brand) ? model : "\(make) \(model)").trimmingCharacters(in: .whitespaces)
            let label = name.isEmpty ? "no camera recorded" : name
            let term = name.isEmpty ? nil : "camera=\(Self.quoted(model.isEmpty ? make : model))"
            byCamera[label, default: (0, term)].count += count
        }
        self.cameras = byCamera.map { Bar(label: $0.key, count: $0.value.count, term: $0.value.term) }.sorted(by: Self.largestFirst)
        self.lenses = lenses.map { id, count in
            guard let lens = pool[id], !lens.isEmpty else { return Bar(label: "no lens recorded", count: count, term: nil) }
            return Bar(label: lens, count: count, term: "lens=\(Self.quoted(lens))")
        }.sorted(by: Self.largestFirst)
        focalLengths = Self.bars(focal, Self.focalEnds, field: "focal", unit: " mm", missing: noFocal)
        isos = Self.bars(iso, Self.isoEnds, field: "iso", unit: "", missing: noISO)
        apertures = Self.bars(aperture, Self.apertureEnds, field: "f", unit: "", prefix: "f/", missing: noAperture)
        let marks = MarkCounts(listed, library: library, tags: tags)
        summary = marks.summary
        ratings = (0...5).reversed().map { star in
            Bar(label: star == 0 ? "unrated" : String(repeating: "★", count: star), count: marks.stars[star], term: "rating:\(star)")
        }
        flags = [
            Bar(label: "picked", count: summary.picked, term: "pick"),
            Bar(label: "rejected", count: summary.rejected, term: "reject -pick"),
            Bar(label: "unflagged", count: summary.photos - summary.picked - summary.rejected, term: "-pick -reject"),
        ]
        labels = zip(Mark.ColourLabel.allCases, marks.labels).map { label, count in
            Bar(label: label.rawValue, count: count, term: "label:\(label.rawValue)")
        }
    }

    private static func largestFirst(_ a: Bar, _ b: Bar) -> Bool {
        (a.term == nil ? 1 : 0, -a.count, a.label) < (b.term == nil ? 1 : 0, -b.count, b.label)
    }

    private static func quoted(_ name: String) -> String {
        name.contains(where: { $0.isWhitespace || $0 == "\"" }) ? "\"\(name.replacingOccurrences(of: "\"", with: ""))\"" : name
    }

    /// A bar per range from the first a photo falls in to the last, named as a photographer would
    /// ("21–28 mm", "f/2.1–2.8", "> 12800"), then the photos without the figure. The terms are written
    /// with the ends as the ranges are counted, in digits every locale reads (`focal>20 focal<=28`).
    private static func bars(_ counts: [Int], _ ends: [Double], field: String, unit: String, prefix: String = "", missing: Int) -> [Bar] {
        func term(_ value: Double) -> String { value == value.rounded() ? String(Int(value)) : String(value) }
        func label(_ value: Double) -> String { value.formatted(.number.grouping(.never).precision(.fractionLength(0...1))) }
        var bars = counts.enumerated().map { position, count in
            if position == 0 {
                return Bar(label: "≤ \(prefix)\(label(ends[0]))\(unit)", count: count, term: "\(field)>0 \(field)<=\(term(ends[0]))")
            }
            let low = ends[position - 1]
            if position == ends.count {
                return Bar(label: "> \(prefix)\(label(low))\(unit)", count: count, term: "\(field)>\(term(low))")
            }
            // Named from the next figure written after the lower end: 21–28 mm, f/2.1–2.8, 201–400.
            let first = low.rounded() == low && ends[position] >= 10 ? low + 1 : low + 0.1
            return Bar(label: "\(prefix)\(label(first))–\(label(ends[position]))\(unit)", count: count, term: "\(field)>\(term(low)) \(field)<=\(term(ends[position]))")
        }
        // Ranges no photo falls in, before the first and after the last that one does, say nothing.
        while bars.first?.count == 0 { bars.removeFirst() }
        while bars.last?.count == 0 { bars.removeLast() }
        if missing > 0 { bars.append(Bar(label: "not recorded", count: missing, term: nil)) }
        return bars
    }
}
