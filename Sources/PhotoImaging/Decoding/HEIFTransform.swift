/// A HEIF or AVIF item's rotation or mirroring, as its `irot` and `imir` properties say; libheif's grid
/// tiles and libavif leave them to their reader.
enum HEIFTransform: Equatable {
    /// `irot`: quarter turns anticlockwise.
    case rotation(quarterTurnsAnticlockwise: Int)
    /// `imir`: top and bottom exchanged (axis 0), else left and right (axis 1).
    case mirror(topToBottom: Bool)

    /// The EXIF orientation (1...8) that stands up a picture stored with `transforms`, applied in order.
    static func exifOrientation(_ transforms: [HEIFTransform]) -> Int {
        // The picture shown is the stored one turned `clockwise` quarter turns, then flipped left to right when `flipped`.
        var clockwise = 0, flipped = false
        for transform in transforms {
            switch transform {
            case .rotation(let anticlockwise):
                let turns = (4 - anticlockwise % 4) % 4
                clockwise += flipped ? 4 - turns : turns
            case .mirror(let topToBottom):
                // Top to bottom is left to right after a half turn.
                if topToBottom { clockwise += 2 }
                flipped.toggle()
            }
        }
        return flipped ? [2, 5, 4, 7][clockwise % 4] : [1, 6, 3, 8][clockwise % 4]
    }
}
