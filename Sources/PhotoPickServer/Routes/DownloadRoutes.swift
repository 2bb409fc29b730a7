import Hummingbird

/// `GET /photos/{id}/download`: a 302 to a signed, expiring file URL, on the files origin when there is one.
enum DownloadRoutes {
    static func register(on group: RouterGroup<ServerContext>, _ environment: ServerEnvironment) {
        group.get("photos/:id/download") { request, context in
            _ = try context.requireScope(.photosRead)
            let query = request.uri.queryParameters
            let sizeText = query["size"].map(String.init) ?? "original"
            let formatText = query["format"].map(String.init) ?? "original"
            guard var variant = ImageVariant(size: sizeText) else {
                throw APIFailure.validation(field: "size", "must be one of original, a4, fhd, web")
            }
            guard ["original", "jpeg", "webp"].contains(formatText) else {
                throw APIFailure.validation(field: "format", "must be one of original, jpeg, webp")
            }
            // A missing photo is a 404 before an unsupported format is a 403.
            let id = try ServerEnvironment.pathID(context, "photo")
            guard try await environment.library.photoExists(id: id) else { throw APIFailure.noSuch("photo") }
            if formatText == "webp" {
                throw APIFailure(status: .forbidden, code: "tariff_not_supported",
                                 message: "Your plan does not include WebP downloads; use format=jpeg or upgrade the plan")
            }
            // The original of a kind other than JPEG, asked for as JPEG: the same pixels, encoded as JPEG.
            if formatText == "jpeg", variant == .original,
               let photo = try await environment.library.photo(id: id, includingTags: false), photo.mimeType != "image/jpeg" {
                variant = .originalJPEG
            }
            let path = environment.fileURLs.path(photoID: id, variant: variant, now: environment.clock.now())
            let location = origin(of: request, filesPort: environment.filesOrigin.port.withLockedValue { $0 }) + path
            return Response(status: .found, headers: [.location: location, .cacheControl: "no-store", .contentLength: "0"])
        }
    }

    /// `http://host:port` as the client reached us, with the port swapped for the files origin's.
    static func origin(of request: Request, filesPort: Int?) -> String {
        let authority = request.head.authority ?? "127.0.0.1"
        guard let filesPort else { return "http://" + authority }
        var host = Substring(authority)
        if let colon = host.lastIndex(of: ":"), !host[colon...].contains("]") { host = host[..<colon] }
        return "http://\(host):\(filesPort)"
    }
}
