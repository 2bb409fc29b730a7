/// The demo library's picture generator, for benchmarks and tests that need realistic JPEGs of any size.
public enum DemoImage {
    /// A baseline JPEG of the procedural scene for `seed`, at `width` x `height` and `quality`.
    public static func jpeg(seed: Int64, width: Int, height: Int, quality: Int = 90) throws -> [UInt8] {
        try JPEGEncoder.encode(SceneDesign(seed: seed), width: width, height: height, quality: quality)
    }
}
