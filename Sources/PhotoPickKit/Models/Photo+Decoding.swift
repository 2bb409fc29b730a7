extension Photo: Decodable {
    /// Reads a photo object: documented fields must be there with their types, and an error names the
    /// field; ours are taken when they have the expected shape and kept raw in `extra` otherwise, with
    /// every unknown field.
    public init(from decoder: any Decoder) throws {
        var members = try LenientMembers(decoder)
        id = try members.required("id")
        filename = try members.required("filename")
        bytes = try members.required("bytes")
        tagIDs = try members.required("tagIds")
        takenAt = try members.date("takenAt")
        createdAt = try members.lenientDate("createdAt")
        width = try members.lenient("width")
        height = try members.lenient("height")
        mimeType = try members.lenient("mimeType")
        camera = try members.lenient("camera")
        lens = try members.lenient("lens")
        exposure = try members.lenient("exposure")
        location = try members.lenient("location")
        title = try members.lenient("title")
        description = try members.lenient("description")
        extra = try members.rest()
    }
}
