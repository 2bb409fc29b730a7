import Foundation
import PhotoBrowser
import PhotoPickFormats
import PhotoPickKit

/// `E`: the fields of the photo under the cursor (or of the selection) in a form. Each starts as the
/// photos' value, or empty where the photos differ; a field left as it was is left alone on every
/// photo. The capture time takes a time (`2024-06-01T14:03:22Z`), a shift (`+1h`, `-00:14:30`) or the
/// zone the camera's clock was in (`zone Europe/Prague`).
struct EditForm: Sendable, Equatable {
    /// The fields, in the order shown.
    static let fields: [PhotoField] = [.title, .description, .filename, .takenAt]

    /// The photos edited, in list order: `{n}` counts in it.
    let photoIDs: [Int]
    /// Each field's text as it opened.
    let initial: [PhotoField: String]
    /// Each field's text now.
    var values: [PhotoField: TextField]
    /// The field typed into.
    var focus = 0
    /// The fields typed into: one typed into and left empty clears it, even where the photos differed.
    var touched: Set<PhotoField> = []
    /// Why the last Enter was refused.
    var problem: String?

    /// The fields whose values differ among the photos (each opened empty).
    let differing: Set<PhotoField>
    /// The first and last photo by capture time, with their times: what the time field's preview shows.
    let timeEnds: [TimeEnd]

    /// A photo at one end of the selection by capture time.
    struct TimeEnd: Sendable, Equatable {
        let name: String
        let takenAt: Date
    }

    /// A form over these photos, showing what they share. The photos are read once, here: the form is
    /// drawn on every frame, and a selection may hold thousands.
    init(photoIDs: [Int], state: BrowserState) {
        self.photoIDs = photoIDs
        let photos = photoIDs.compactMap(state.library.index(ofID:)).map(state.library.photo(at:))
        var initial: [PhotoField: String] = [:]
        var differing: Set<PhotoField> = []
        for field in Self.fields {
            let texts = Set(photos.map { Self.text(field, of: $0) })
            initial[field] = texts.count == 1 ? texts.first ?? "" : ""
            if texts.count > 1 { differing.insert(field) }
        }
        self.initial = initial
        self.differing = differing
        values = initial.mapValues { TextField($0) }
        let dated = photos.compactMap { photo in photo.takenAt.map { TimeEnd(name: photo.filename, takenAt: $0) } }.sorted { $0.takenAt < $1.takenAt }
        timeEnds = dated.count > 1 ? [dated[0], dated[dated.count - 1]] : dated
    }

    /// A field's value as the form shows it: text as it is, a capture time in ISO 8601 UTC.
    static func text(_ field: PhotoField, of photo: Photo) -> String {
        field == .takenAt ? photo.takenAt.map { ISO8601.string(seconds: Int64($0.timeIntervalSince1970.rounded(.down))) } ?? "" : field.value(of: photo) ?? ""
    }

    /// The field typed into.
    var focused: PhotoField { Self.fields[focus] }

    /// What the form asks for: only the fields changed since it opened.
    func request() throws(EditRequest.Problem) -> EditRequest {
        var request = EditRequest()
        func changed(_ field: PhotoField) -> String? {
            let text = values[field]?.text ?? ""
            return text == initial[field] && !touched.contains(field) ? nil : text
        }
        request.title = changed(.title)
        request.description = changed(.description)
        if let filename = changed(.filename) {
            guard !filename.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw EditRequest.Problem(description: "A photo needs a file name; type one, or esc to leave it.")
            }
            request.filename = filename
        }
        if let time = changed(.takenAt)?.trimmingCharacters(in: .whitespaces), !time.isEmpty {
            if let date = ISO8601.date(from: time) {
                request.takenAt = date
            } else {
                do {
                    request.adjustment = try TimeAdjustment(parsing: time)
                } catch {
                    throw EditRequest.Problem(description: "Capture time: \(error.description); or a time such as 2024-06-01T14:03:22Z.")
                }
            }
        }
        return request
    }

    /// The first and last photo by capture time, before and after the form's time change: what a shift
    /// does, shown before it is applied. Nil when the time field asks for nothing.
    func timePreview() -> [(name: String, before: Date, after: Date)]? {
        guard let request = try? request(), request.takenAt != nil || request.adjustment != nil else { return nil }
        return timeEnds.map { end in
            (end.name, end.takenAt, request.takenAt ?? request.adjustment?.applied(to: end.takenAt) ?? end.takenAt)
        }
    }
}
