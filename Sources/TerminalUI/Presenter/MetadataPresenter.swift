import Foundation
import PhotoBrowser
import PhotoPickKit
import PhotoPickFormats

/// One line of the metadata pane: a label and a value, both safe for a terminal.
struct MetadataRow: Sendable, Equatable {
    /// Such as "Exposure".
    let label: String
    /// Such as "1/250 s · f/2.8 · ISO 400 · 35 mm".
    let value: String
    /// The tags, with their colours, on the "Tags" row.
    let tags: [TagChip]
    /// Prose, such as a description, that may wrap over every line there is rather than two.
    let isProse: Bool
    /// The culling marks, on the "Marks" row, for views that draw them as stars and colours.
    let marks: PhotoMarks?

    init(_ label: String, _ value: String, tags: [TagChip] = [], isProse: Bool = false, marks: PhotoMarks? = nil) {
        self.label = TerminalText.sanitized(label)
        self.value = TerminalText.sanitized(value)
        self.tags = tags
        self.isProse = isProse
        self.marks = marks
    }
}

/// A tag as drawn: its sanitised name and colour.
struct TagChip: Sendable, Equatable {
    /// The tag's id.
    let id: Int
    /// The name, safe for a terminal.
    let name: String
    /// The colour as the server sent it (`#rrggbb`), parsed; nil when it had none or an unreadable one.
    let color: TagColor?
}

/// Turns a photo into the rows the metadata pane shows.
struct MetadataPresenter: Sendable {
    let timeZone: TimeZone

    /// Capture times are shown in `timeZone`, the user's own by default.
    init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    /// Every row for `photo`: the known fields first, then each field photopick does not know, raw.
    func rows(for photo: Photo, tags: TagCatalog, focus: FocusFacts? = nil, pair: Photo? = nil) -> [MetadataRow] {
        var rows = [MetadataRow("File", photo.filename)]
        // A RAW+JPEG pair: the other file and its size under this one's name; marks and tags are on both.
        if let pair { rows.append(MetadataRow("Pair", "\(pair.filename) · \(Figures.bytes(pair.bytes))")) }
        if let title = photo.title, !title.isEmpty { rows.append(MetadataRow("Title", title)) }
        if let width = photo.width, let height = photo.height {
            let megapixels = Double(width) * Double(height) / 1_000_000
            rows.append(MetadataRow("Dimensions", "\(width) × \(height) (\(megapixels.formatted(.number.precision(.fractionLength(1)))) MP)"))
        }
        rows.append(MetadataRow("Size", Figures.bytes(photo.bytes)))
        rows.append(MetadataRow("Taken", photo.takenAt.map(localTime) ?? "unknown"))
        if let camera = photo.camera.flatMap(Self.camera) { rows.append(MetadataRow("Camera", camera)) }
        if let lens = photo.lens, !lens.isEmpty { rows.append(MetadataRow("Lens", lens)) }
        if let exposure = photo.exposure.flatMap(Self.exposure) { rows.append(MetadataRow("Exposure", exposure)) }
        if let location = photo.location { rows.append(MetadataRow("Location", Self.location(location))) }
        if let focus { rows.append(MetadataRow("Sharpness", focus.text)) }
        let marks = tags.marks(of: photo.tagIDs)
        if !marks.isEmpty { rows.append(MetadataRow("Marks", Self.describe(marks, names: tags.markNames), marks: marks)) }
        let chips = tags.ordinaryTags(photo.tagIDs).map { id in
            let tag = tags.tag(id: id)
            return TagChip(id: id, name: TerminalText.sanitized(tag?.name ?? "tag \(id)"), color: tags.color(id: id))
        }
        rows.append(MetadataRow("Tags", chips.isEmpty ? "none" : chips.map(\.name).joined(separator: ", "), tags: chips))
        if let description = photo.description, !description.isEmpty { rows.append(MetadataRow("Description", description, isProse: true)) }
        if let mimeType = photo.mimeType { rows.append(MetadataRow("Type", mimeType)) }
        if let createdAt = photo.createdAt { rows.append(MetadataRow("Added", localTime(createdAt))) }
        rows.append(MetadataRow("ID", String(photo.id)))
        for key in photo.extra.keys.sorted() {
            rows.append(MetadataRow(key, photo.extra[key].map { $0.stringValue ?? $0.description } ?? ""))
        }
        return rows
    }

    /// "Pick · 3 stars · Red", in the tag names the marks are stored as.
    static func describe(_ marks: PhotoMarks, names: MarkNames) -> String {
        var parts: [String] = []
        if let flag = marks.flag { parts.append(names.name(of: .flag(flag))) }
        if marks.rating > 0 { parts.append(names.name(of: .rating(marks.rating))) }
        if let label = marks.label { parts.append(names.name(of: .label(label))) }
        return parts.joined(separator: " · ")
    }

    func localTime(_ date: Date) -> String {
        var style = Date.VerbatimFormatStyle(
            format: "\(year: .defaultDigits)-\(month: .twoDigits)-\(day: .twoDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits)",
            timeZone: timeZone, calendar: Calendar(identifier: .gregorian)
        )
        style.locale = Locale(identifier: "en_US_POSIX")
        let zone = timeZone.abbreviation(for: date) ?? timeZone.identifier
        return "\(date.formatted(style)) \(zone)"
    }

    /// "RICOH GR III" rather than "RICOH IMAGING COMPANY, LTD. RICOH GR III": the make is left out
    /// when the model already starts with its first word.
    static func camera(_ camera: Photo.Camera) -> String? {
        let make = camera.make?.trimmingCharacters(in: .whitespaces) ?? ""
        let model = camera.model?.trimmingCharacters(in: .whitespaces) ?? ""
        if model.isEmpty { return make.isEmpty ? nil : make }
        let brand = make.split(separator: " ").first.map(String.init) ?? ""
        if brand.isEmpty || model.lowercased().hasPrefix(brand.lowercased()) { return model }
        return "\(make) \(model)"
    }

    /// `1/250 s · f/2.8 · ISO 400 · 35 mm`, with whichever parts are known.
    static func exposure(_ exposure: Photo.Exposure) -> String? {
        var parts: [String] = []
        if let time = exposure.exposureTime, !time.isEmpty { parts.append("\(time) s") }
        if let fNumber = exposure.fNumber { parts.append("f/\(decimal(fNumber))") }
        if let iso = exposure.iso { parts.append("ISO \(iso)") }
        if let focalLength = exposure.focalLength { parts.append("\(decimal(focalLength)) mm") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// `50.08750° N, 14.42140° E`.
    static func location(_ location: Photo.Location) -> String {
        let latitude = String(format: "%.5f° %@", abs(location.latitude), location.latitude < 0 ? "S" : "N")
        let longitude = String(format: "%.5f° %@", abs(location.longitude), location.longitude < 0 ? "W" : "E")
        return "\(latitude), \(longitude)"
    }

    /// At most one decimal, none when whole: 2.8, 35, 18.3.
    static func decimal(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }
}
