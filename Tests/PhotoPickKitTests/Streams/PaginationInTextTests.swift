import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Text that looks like a page's `pagination` member, written into photos' own fields.
private let paginationLookalikes = [
    #""pagination":{"nextCursor":"x","hasMore":true}"#,
    #""pagination":{"nextCursor":"x","hasMore":false}"#,
]

/// A photo field `PATCH /photos/{id}` can set to any text.
enum PaginationLookalikeField: String, CaseIterable, Sendable {
    case title, filename, description

    func update(_ text: String) -> PhotoUpdate {
        switch self {
        case .title: PhotoUpdate(title: text)
        case .filename: PhotoUpdate(filename: text)
        case .description: PhotoUpdate(description: text)
        }
    }

    func value(of photo: Photo) -> String? {
        switch self {
        case .title: photo.title
        case .filename: photo.filename
        case .description: photo.description
        }
    }
}

/// A photo whose text looks like a page's `pagination` member must not end a walk early or send it to
/// cursor `"x"`, however the page is read.
@Suite(.serialized) struct PaginationInTextTests {
    @Test(arguments: PaginationLookalikeField.allCases, paginationLookalikes)
    func aWalkIgnoresPaginationWrittenIntoAPhoto(field: PaginationLookalikeField, text: String) async throws {
        let clientLog = LineLog()
        try await withKitServer(photos: 350, clientLog: clientLog) { server, client, serverLog in
            let before = try await walk(client)
            #expect(before.pages == 4)
            #expect(before.photos.map(\.id) == Array(1...350))

            // First and last photo of the first page, one inside a page, the last of a middle page, and
            // the first and very last of the last page, just before its real `pagination`.
            let renamed = [1, 100, 150, 200, 301, 350]
            for id in renamed {
                let patched = try await client.send(API.updatePhoto(id: id, field.update(text)))
                #expect(field.value(of: patched) == text)
            }
            // The look-alike is in the bytes the scanner reads, escaped as a JSON string.
            let raw = try await APICaller(server: server).get("/photos?limit=100")
            #expect(raw.status == 200)
            #expect(raw.text.contains(#"\"pagination\":{\"nextCursor\":\"x\""#))

            let requestsBefore = serverLog.requests("GET /api/v1/photos ").count
            let after = try await walk(client)
            // Every photo once, in the order of the walk before the rename, and the walk ended by itself.
            #expect(after.pages == before.pages)
            #expect(after.photos.map(\.id) == before.photos.map(\.id))
            #expect(Set(after.photos.map(\.id)).count == after.photos.count)
            for photo in after.photos where renamed.contains(photo.id) {
                #expect(field.value(of: photo) == text, "photo \(photo.id) came back with its text")
            }

            // Nothing was asked with cursor "x", not even ahead of time and then dropped.
            let walkRequests = Array(serverLog.requests("GET /api/v1/photos ").dropFirst(requestsBefore))
            #expect(walkRequests.count == after.pages, "one request per page: \(walkRequests)")
            #expect(walkRequests.allSatisfy { $0.contains(" 200 ") }, "\(walkRequests)")
            let askedForX = clientLog.lines.filter { $0.contains("cursor=x ") || $0.contains("cursor=x&") || $0.hasSuffix("cursor=x") }
            #expect(askedForX.isEmpty, "\(askedForX)")
        }
    }
}

/// One whole walk with `PageStream`: its photos in the order delivered, and how many pages it took.
/// Stops (and fails the test) past 10 pages, so a walk that loops cannot hang it.
/// Walks every page; returns once any page the walk fetched ahead has been answered too, so every
/// request it made is in the logs.
private func walk(_ client: APIClient) async throws -> (photos: [Photo], pages: Int) {
    var photos: [Photo] = []
    var pages = 0
    var iterator = PageStream<Photo>(client: client).makeAsyncIterator()
    while let page = try await iterator.next() {
        pages += 1
        photos += page.data
        if pages > 10 {
            Issue.record("the walk went on past 10 pages")
            break
        }
    }
    await iterator.fetchAheadAnswered()
    return (photos, pages)
}
