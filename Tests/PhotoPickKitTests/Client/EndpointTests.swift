import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// All 14 endpoints of the contract, through typed requests against the real server.
struct EndpointTests {
    @Test func meAndCustomer() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let me = try await client.send(API.me())
            #expect(Set(me.scopes) == [.customerRead, .photosRead, .photosWrite, .photosDelete, .tagsRead, .tagsWrite])
            #expect(me.rateLimit.limit == 100_000)
            let customer = try await client.send(API.customer())
            #expect(customer.id == me.customerId)
            #expect(customer.name?.isEmpty == false)
        }
    }

    @Test func photosListGetPatchDelete() async throws {
        try await withKitServer(photos: 120) { _, client, _ in
            let page = try await client.send(API.photos(limit: 100))
            #expect(page.data.count == 100 && page.hasNextPage)
            let next = try await client.send(API.photos(limit: 100, cursor: page.pagination.nextCursor))
            #expect(next.data.map(\.id) == Array(101...120) && !next.hasNextPage)
            let photo = try await client.send(API.photo(id: 7))
            #expect(photo.id == 7 && photo.width != nil && photo.camera != nil)
            let patched = try await client.send(API.updatePhoto(id: 7, PhotoUpdate(title: "New title", description: .some(nil))))
            #expect(patched.title == "New title" && patched.description == nil && patched.filename == photo.filename)
            try await client.send(API.deletePhoto(id: 7))
            await #expect(throws: APIError.self) { try await client.send(API.photo(id: 7)) }
        }
    }

    @Test func photoTagsReadAndReplace() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let tags = try await client.send(API.tags()).data
            let replaced = try await client.send(API.replacePhotoTags(id: 2, tagIDs: [tags[0].id, tags[1].id, tags[0].id]))
            #expect(Set(replaced.tagIds) == [tags[0].id, tags[1].id])
            let read = try await client.send(API.photoTags(id: 2))
            #expect(Set(read.tags.map(\.id)) == [tags[0].id, tags[1].id])
            #expect(try await client.send(API.replacePhotoTags(id: 2, tagIDs: [])).tagIds.isEmpty)
        }
    }

    @Test func tagsCreateGetPatchDelete() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let created = try await client.send(API.createTag(name: "Kit test", color: "#112233"))
            #expect(try await client.send(API.tag(id: created.id)) == created)
            let renamed = try await client.send(API.updateTag(id: created.id, TagUpdate(name: "Renamed", color: .some(nil))))
            #expect(renamed.name == "Renamed" && renamed.color == nil)
            try await client.send(API.deleteTag(id: created.id))
            let names = try await TagStream(client: client).reduce(into: [String]()) { $0.append($1.name) }
            #expect(!names.contains("Renamed") && names.contains("Favourite"))
        }
    }

    @Test func downloadLocationIsTheSignedURL() async throws {
        try await withKitServer(photos: 5) { server, client, _ in
            let url = try await client.send(API.downloadLocation(id: 3, size: .web))
            #expect(url.path == "/files/3/web")
            #expect(url.query?.contains("signature=") == true)
            #expect(url.port == server.port)
        }
    }

    @Test func curlDescriptionRepeatsTheRequestWithoutTheKey() throws {
        let request = API.updateTag(id: 4, TagUpdate(name: "It's"))
        let curl = request.curlDescription(baseURL: URL(string: "https://api.photopick.cz/api/v1")!)
        #expect(curl == #"curl -X PATCH 'https://api.photopick.cz/api/v1/tags/4' -H "Authorization: Bearer $PHOTOPICK_API_KEY" -H 'Content-Type: application/json' --data '{"name":"It'\''s"}'"#)
    }
}
