import Hummingbird
import NIOCore
import _NIOFileSystem

/// The storage origin: `GET /files/{id}/{variant}?expires&signature`, with validators, ranges and a digest.
enum FileRoutes {
    private struct TruncatedBody: Error {}

    /// Registers `:id/:variant` on `group`, which is mounted at `/files`.
    static func register(on group: RouterGroup<ServerContext>, _ environment: ServerEnvironment) {
        group.get(":id/:variant") { request, context in
            try await serve(request, context, environment, includeBody: true)
        }
        group.head(":id/:variant") { request, context in
            try await serve(request, context, environment, includeBody: false)
        }
    }

    private static func serve(
        _ request: Request, _ context: ServerContext, _ environment: ServerEnvironment, includeBody: Bool
    ) async throws -> Response {
        environment.filesOrigin.record(hasAuthorization: request.headers[.authorization] != nil)
        let id = try ServerEnvironment.pathID(context, "file")
        guard let variant = context.parameters.get("variant").flatMap(ImageVariant.init(rawValue:)) else {
            throw APIFailure.noSuch("file")
        }
        let query = request.uri.queryParameters
        switch environment.fileURLs.verify(
            photoID: id, variant: variant, expires: query["expires"].map(String.init),
            signature: query["signature"].map(String.init), now: environment.clock.now()
        ) {
        case .valid: break
        case .expired:
            throw APIFailure(status: .forbidden, code: "url_expired",
                             message: "This download link has expired; request a new one from /photos/\(id)/download")
        case .invalid:
            throw APIFailure(status: .forbidden, code: "invalid_signature",
                             message: "This download link is not valid; request a new one from /photos/\(id)/download")
        }
        // The tags are not needed here: one query less on the path every file request takes.
        guard let photo = try await environment.library.photo(id: id, includingTags: false) else {
            throw APIFailure.noSuch("photo")
        }
        let image = try await environment.images.image(for: photo, variant: variant)
        let lastModified = Timestamp.httpDate(photo.createdAt)
        var headers: HTTPFields = [
            .contentType: variant == .original ? photo.mimeType : "image/jpeg",
            .eTag: image.etag,
            .lastModified: lastModified,
            .acceptRanges: "bytes",
            .reprDigest: image.reprDigest,
            .contentDisposition: ContentDisposition.attachment(filename: ContentDisposition.filename(for: photo, variant: variant)),
            .cacheControl: "private, max-age=300",
        ]
        let validatorMatches = request.headers[.ifRange].map { $0 == image.etag || $0 == lastModified } ?? true
        let range = validatorMatches ? ByteRange(header: request.headers[.range], length: image.length) : .whole
        let served: ClosedRange<Int64>
        let status: HTTPResponse.Status
        switch range {
        case .unsatisfiable:
            throw APIFailure(status: .rangeNotSatisfiable, code: "range_not_satisfiable",
                             message: "The range starts past the end of the \(image.length)-byte file",
                             headers: [.contentRange: "bytes */\(image.length)"])
        case .whole:
            status = .ok
            served = 0...max(0, image.length - 1)
        case .partial(let bytes):
            status = .partialContent
            served = bytes
            headers[.contentRange] = "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(image.length)"
        }
        let count = image.length == 0 ? 0 : Int64(served.count)
        guard includeBody, count > 0 else {
            headers[.contentLength] = String(count)
            return Response(status: status, headers: headers)
        }
        let truncation = context.truncatesFileBody ? max(1, count / 2) : nil
        return Response(status: status, headers: headers, body: fileBody(image.path, served, truncateAfter: truncation))
    }

    /// Streams `range` of the file in chunks; with `truncateAfter`, stops there and drops the connection.
    private static func fileBody(_ path: String, _ range: ClosedRange<Int64>, truncateAfter: Int64?) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            try await FileSystem.shared.withFileHandle(forReadingAt: FilePath(path)) { handle in
                var sent: Int64 = 0
                for try await chunk in handle.readChunks(in: range, chunkLength: .kibibytes(128)) {
                    if let limit = truncateAfter, sent + Int64(chunk.readableBytes) >= limit {
                        try await writer.write(chunk.getSlice(at: chunk.readerIndex, length: Int(limit - sent))!)
                        throw TruncatedBody()
                    }
                    try await writer.write(chunk)
                    sent += Int64(chunk.readableBytes)
                }
                try await writer.finish(nil)
            }
        }
    }
}
