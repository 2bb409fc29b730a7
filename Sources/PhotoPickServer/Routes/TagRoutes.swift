import Hummingbird

/// `/tags` and `/tags/{id}`.
enum TagRoutes {
    static func register(on group: RouterGroup<ServerContext>, _ environment: ServerEnvironment) {
        let library = environment.library
        group.get("tags") { request, context in
            _ = try context.requireScope(.tagsRead)
            let page = try PageRequest(request, listing: .tags, cursors: environment.cursors)
            let tags = try await library.tags(after: page.afterID, limit: page.limit + 1)
            return try page.response(tags, id: \.id, represent: TagRepresentation.init)
        }
        group.get("tags/:id") { _, context in
            _ = try context.requireScope(.tagsRead)
            let id = try ServerEnvironment.pathID(context, "tag")
            guard let tag = try await library.tag(id: id) else { throw APIFailure.noSuch("tag") }
            return try JSONResponse.make(TagRepresentation(tag: tag))
        }
        group.post("tags") { request, context in
            _ = try context.requireScope(.tagsWrite)
            let body = try await JSONBody.decode(TagCreateBody.self, from: request)
            return try respond(to: try await library.createTag(name: body.name, color: body.color), status: .created)
        }
        group.patch("tags/:id") { request, context in
            _ = try context.requireScope(.tagsWrite)
            let id = try ServerEnvironment.pathID(context, "tag")
            let body = try await JSONBody.decode(TagPatchBody.self, from: request)
            return try respond(to: try await library.updateTag(id: id, with: body.patch), status: .ok)
        }
        group.delete("tags/:id") { _, context in
            _ = try context.requireScope(.tagsWrite)
            let id = try ServerEnvironment.pathID(context, "tag")
            guard try await library.deleteTag(id: id) else { throw APIFailure.noSuch("tag") }
            return Response(status: .noContent)
        }
    }

    private static func respond(to outcome: TagWriteOutcome, status: HTTPResponse.Status) throws -> Response {
        switch outcome {
        case .written(let tag):
            return try JSONResponse.make(TagRepresentation(tag: tag), status: status)
        case .notFound:
            throw APIFailure.noSuch("tag")
        case .conflict(let existing):
            throw APIFailure(status: .conflict, code: "conflict",
                             message: "A tag named \"\(existing.name)\" already exists (id \(existing.id))",
                             details: .object(["existingTagId": .int(existing.id)]))
        }
    }
}
