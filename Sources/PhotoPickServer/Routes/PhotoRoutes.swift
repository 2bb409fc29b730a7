import Hummingbird

/// `/photos`, `/photos/{id}` and `/photos/{id}/tags`.
enum PhotoRoutes {
    private struct TagIDs: Encodable {
        let tagIds: [Int64]
    }

    private struct TagList: Encodable {
        let data: [TagRepresentation]
    }

    static func register(on group: RouterGroup<ServerContext>, _ environment: ServerEnvironment) {
        let library = environment.library
        group.get("photos") { request, context in
            _ = try context.requireScope(.photosRead)
            let page = try PageRequest(request, listing: .photos, cursors: environment.cursors)
            let photos = try await library.photos(after: page.afterID, limit: page.limit + 1)
            return try page.response(photos, id: \.id, represent: PhotoRepresentation.init)
        }
        group.get("photos/:id") { _, context in
            _ = try context.requireScope(.photosRead)
            return try JSONResponse.make(PhotoRepresentation(photo: try await existingPhoto(context, library)))
        }
        group.patch("photos/:id") { request, context in
            _ = try context.requireScope(.photosWrite)
            let id = try ServerEnvironment.pathID(context, "photo")
            let body = try await JSONBody.decode(PhotoPatchBody.self, from: request)
            guard let photo = try await library.updatePhoto(id: id, with: body.patch) else { throw APIFailure.noSuch("photo") }
            return try JSONResponse.make(PhotoRepresentation(photo: photo))
        }
        group.delete("photos/:id") { _, context in
            _ = try context.requireScope(.photosDelete)
            let id = try ServerEnvironment.pathID(context, "photo")
            guard try await library.deletePhoto(id: id) else { throw APIFailure.noSuch("photo") }
            await environment.images.removeImages(ofPhoto: id)
            return Response(status: .noContent)
        }
        group.get("photos/:id/tags") { _, context in
            _ = try context.requireScope(.photosRead)
            let id = try ServerEnvironment.pathID(context, "photo")
            guard let tags = try await library.tags(ofPhoto: id) else { throw APIFailure.noSuch("photo") }
            return try JSONResponse.make(TagList(data: tags.map(TagRepresentation.init)))
        }
        group.put("photos/:id/tags") { request, context in
            _ = try context.requireScope(.photosWrite)
            let id = try ServerEnvironment.pathID(context, "photo")
            let body = try await JSONBody.decode(PhotoTagsBody.self, from: request)
            switch try await library.replaceTags(ofPhoto: id, with: body.tagIds) {
            case .replaced(let tagIDs):
                return try JSONResponse.make(TagIDs(tagIds: tagIDs))
            case .photoNotFound:
                throw APIFailure.noSuch("photo")
            case .unknownTags(let unknown):
                let list = unknown.map(String.init).joined(separator: ", ")
                throw APIFailure.validation(field: "tagIds", "unknown tag id \(list); list tags with GET /tags")
            }
        }
    }

    static func existingPhoto(_ context: ServerContext, _ library: LibraryStore) async throws -> PhotoRecord {
        let id = try ServerEnvironment.pathID(context, "photo")
        guard let photo = try await library.photo(id: id) else { throw APIFailure.noSuch("photo") }
        return photo
    }
}
