/// Where a ``VideoEdit`` takes each picture: which stored pixels it keeps, how far it turns them
/// and the size it ends at. Pure arithmetic, so it is tested on its own.
///
/// Edits are expressed on the picture as it is shown: the stream's display rotation comes first,
/// then the crop (in shown coordinates), the edit's quarter turns, and the fit inside the maximum
/// size (never enlarging, even width and height for 4:2:0).
struct EditGeometry: Equatable {
    /// A rectangle of pixels.
    struct Rect: Equatable {
        var x: Int, y: Int, width: Int, height: Int
    }

    /// The stored pixels kept, in stored (decoded) coordinates.
    var crop: Rect
    /// Clockwise quarter turns from the stored picture to the output, 0...3.
    var quarterTurns: Int
    /// The output size.
    var width: Int, height: Int

    /// Whether the picture is kept whole.
    var cropsNothing: Bool

    /// The size to scale to before turning.
    var scaledWidth: Int { quarterTurns % 2 == 0 ? width : height }
    var scaledHeight: Int { quarterTurns % 2 == 0 ? height : width }

    /// Works out the geometry for pictures stored as `storedWidth` × `storedHeight` that are shown
    /// turned clockwise by `displayRotation` degrees.
    /// - Throws: ``FFmpegError/Kind-swift.enum/invalidRequest`` when the crop is empty or outside
    ///   the shown picture, or a maximum size is below 2.
    init(storedWidth: Int, storedHeight: Int, displayRotation: Int, edit: VideoEdit, evenSize: Bool = true,
         path: String) throws(FFmpegError) {
        let displayTurns = ((displayRotation / 90) % 4 + 4) % 4
        let shownWidth = displayTurns % 2 == 0 ? storedWidth : storedHeight
        let shownHeight = displayTurns % 2 == 0 ? storedHeight : storedWidth
        let shownCrop = edit.crop.map { Rect(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
            ?? Rect(x: 0, y: 0, width: shownWidth, height: shownHeight)
        guard shownCrop.width > 0, shownCrop.height > 0, shownCrop.x >= 0, shownCrop.y >= 0,
              shownCrop.x + shownCrop.width <= shownWidth, shownCrop.y + shownCrop.height <= shownHeight else {
            throw FFmpegError(.invalidRequest, operation: "crop", path: path,
                              reason: "the crop \(shownCrop.width)×\(shownCrop.height) at (\(shownCrop.x), \(shownCrop.y)) "
                                  + "is not inside the \(shownWidth)×\(shownHeight) picture; fix the crop")
        }
        if let maxWidth = edit.maxWidth, maxWidth < 2 {
            throw FFmpegError(.invalidRequest, operation: "resize", path: path, reason: "maxWidth \(maxWidth) is below 2")
        }
        if let maxHeight = edit.maxHeight, maxHeight < 2 {
            throw FFmpegError(.invalidRequest, operation: "resize", path: path, reason: "maxHeight \(maxHeight) is below 2")
        }
        crop = Self.unrotate(shownCrop, turns: displayTurns, storedWidth: storedWidth, storedHeight: storedHeight)
        cropsNothing = crop == Rect(x: 0, y: 0, width: storedWidth, height: storedHeight)
        quarterTurns = ((displayTurns + edit.quarterTurns) % 4 + 4) % 4

        let turnedWidth = quarterTurns % 2 == 0 ? crop.width : crop.height
        let turnedHeight = quarterTurns % 2 == 0 ? crop.height : crop.width
        var scale = 1.0
        if let maxWidth = edit.maxWidth { scale = min(scale, Double(maxWidth) / Double(turnedWidth)) }
        if let maxHeight = edit.maxHeight { scale = min(scale, Double(maxHeight) / Double(turnedHeight)) }
        var fittedWidth = max(1, Int((Double(turnedWidth) * scale).rounded()))
        var fittedHeight = max(1, Int((Double(turnedHeight) * scale).rounded()))
        if let maxWidth = edit.maxWidth { fittedWidth = min(fittedWidth, maxWidth) }
        if let maxHeight = edit.maxHeight { fittedHeight = min(fittedHeight, maxHeight) }
        if evenSize {
            fittedWidth = max(2, fittedWidth & ~1)
            fittedHeight = max(2, fittedHeight & ~1)
        }
        width = fittedWidth
        height = fittedHeight
    }

    /// Maps a rectangle on the picture shown turned clockwise by `turns` back to stored coordinates.
    static func unrotate(_ shown: Rect, turns: Int, storedWidth: Int, storedHeight: Int) -> Rect {
        switch turns {
        case 1:
            Rect(x: shown.y, y: storedHeight - shown.x - shown.width, width: shown.height, height: shown.width)
        case 2:
            Rect(x: storedWidth - shown.x - shown.width, y: storedHeight - shown.y - shown.height,
                 width: shown.width, height: shown.height)
        case 3:
            Rect(x: storedWidth - shown.y - shown.height, y: shown.x, width: shown.height, height: shown.width)
        default:
            shown
        }
    }
}
