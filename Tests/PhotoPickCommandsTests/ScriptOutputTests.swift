import Foundation
@testable import PhotoPickCommands
@testable import PhotoBrowser
import PhotoPickKit
import Testing

/// What the scripting verbs print: photos as JSON, whose text survives exactly, and lines from templates.
struct ScriptOutputTests {
    static let hostile = [
        "\u{1B}[31mRED\u{1B}[0m alert.jpg", "line\nbreak.jpg", "tab\there.jpg", "quote\"and\\backslash.jpg", "naïve ☃ 𝄞 emoji 😀.jpg",
        "\u{202E}gpj.exe", "null\u{0}byte.jpg", "../../etc/passwd",
    ]

    static func photo(_ id: Int, _ name: String) -> ListedPhoto {
        ListedPhoto(
            id: id, filename: name, bytes: 1234, takenAt: Date(timeIntervalSince1970: 1_717_250_602), width: 6000, height: 4000,
            mimeType: "image/jpeg", title: "A \u{1B}]0;title\u{07}", description: nil, camera: Photo.Camera(make: "Fujifilm", model: "X-T5"),
            lens: nil, exposure: nil, location: nil, tags: ["holiday", "tab\tname"],
            marks: ListedPhoto.Marks(flag: "pick", rating: 3, label: nil), sharpness: 4.25
        )
    }

    @Test func jsonKeepsEveryHostileNameExactly() throws {
        let encoder = ListedPhoto.encoder()
        for (offset, name) in Self.hostile.enumerated() {
            let data = try encoder.encode(Self.photo(offset + 1, name))
            #expect(!data.contains(0x1B) && !data.contains(0x0A) && !data.contains(0x00), "no raw control byte in the JSON of \(name.debugDescription)")
            let object = try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["filename"] as? String == name)
            #expect(object["takenAt"] as? String == "2024-06-01T14:03:22Z")
            #expect(object["tags"] as? [String] == ["holiday", "tab\tname"])
            let marks = try #require(object["marks"] as? [String: Any])
            #expect(marks["flag"] as? String == "pick" && marks["rating"] as? Int == 3 && marks["label"] is NSNull)
            #expect(object["description"] == nil && object["sharpness"] as? Double == 4.25)
        }
    }

    @Test func aTemplateNamesFieldsFormatsTimesAndEscapes() throws {
        let template = try PhotoTemplate("{id}\\t{filename}\\t{taken:%Y-%m-%d %H:%M}\\t{rating}{{x}}\\\\")
        let line = template.render(Self.photo(7, "tab\there.jpg"), timeZone: TimeZone(identifier: "UTC")!) { TerminalText.sanitized($0) }
        #expect(line == "7\ttab␉here.jpg\t2024-06-01 14:03\t3{x}\\", "\(line.debugDescription)")
        let prague = try PhotoTemplate("{taken:%Y/%m/%d}/{name}.{extension}").render(Self.photo(1, "R0001.JPG"), timeZone: TimeZone(identifier: "Europe/Prague")!) { $0 }
        #expect(prague == "2024/06/01/R0001.JPG")
        var undated = Self.photo(1, "a.jpg")
        undated.takenAt = nil
        #expect(try PhotoTemplate("{taken:%Y}/{filename}").render(undated) { $0 } == "undated/a.jpg")
    }

    @Test(arguments: [
        ("{nope}", "{nope} is not a field; use one of id, filename"),
        ("{filename:%Y}", "only {taken} and {n} take a format"),
        ("{id", "is never closed"),
        ("a}b", "a lone }"),
    ])
    func aBadTemplateSaysWhatAndHowToFixIt(text: String, expected: String) {
        #expect(throws: PhotoTemplate.Problem.self) { try PhotoTemplate(text) }
        do {
            _ = try PhotoTemplate(text)
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }
}
