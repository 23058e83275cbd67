@testable import FFmpeg
import Testing

@Suite struct EditGeometryTests {
    private func geometry(_ width: Int, _ height: Int, rotation: Int = 0, _ edit: VideoEdit) throws -> EditGeometry {
        try EditGeometry(storedWidth: width, storedHeight: height, displayRotation: rotation, edit: edit, path: "test")
    }

    @Test func anIdentityEditKeepsTheWholePicture() throws {
        let g = try geometry(320, 240, .identity)
        #expect(g.cropsNothing && g.quarterTurns == 0 && g.width == 320 && g.height == 240)
    }

    @Test func cropTurnAndFitApplyInThatOrder() throws {
        let g = try geometry(320, 240, VideoEdit(crop: .init(x: 10, y: 20, width: 200, height: 100), quarterTurns: 1,
                                                 maxWidth: 50))
        #expect(g.crop == .init(x: 10, y: 20, width: 200, height: 100))
        #expect(g.width == 50 && g.height == 100)
        #expect(g.scaledWidth == 100 && g.scaledHeight == 50)
    }

    @Test func fittingNeverEnlargesAndKeepsSizesEven() throws {
        #expect(try geometry(320, 240, VideoEdit(maxWidth: 1000, maxHeight: 1000)).width == 320)
        let g = try geometry(1920, 1080, VideoEdit(maxWidth: 333, maxHeight: 333))
        #expect(g.width == 332 && g.height == 186)
    }

    @Test func aCropOnTheShownPictureMapsBackThroughTheDisplayRotation() throws {
        // Stored 4×2, shown turned clockwise as 2×4: the shown top row is the stored left column, bottom up.
        let clockwise = try geometry(4, 2, rotation: 90, VideoEdit(crop: .init(x: 0, y: 0, width: 2, height: 1)))
        #expect(clockwise.crop == .init(x: 0, y: 0, width: 1, height: 2))
        #expect(clockwise.quarterTurns == 1)
        let counter = try geometry(4, 2, rotation: 270, VideoEdit(crop: .init(x: 0, y: 0, width: 2, height: 1)))
        #expect(counter.crop == .init(x: 3, y: 0, width: 1, height: 2))
        let upsideDown = try geometry(4, 2, rotation: 180, VideoEdit(crop: .init(x: 0, y: 0, width: 1, height: 1)))
        #expect(upsideDown.crop == .init(x: 3, y: 1, width: 1, height: 1))
        #expect(upsideDown.quarterTurns == 2)
    }

    @Test func negativeTurnsTurnCounterclockwise() throws {
        #expect(try geometry(320, 240, VideoEdit(quarterTurns: -1)).quarterTurns == 3)
        #expect(try geometry(320, 240, rotation: 90, VideoEdit(quarterTurns: -1)).quarterTurns == 0)
    }

    @Test func aCropReachingOutsideTheShownPictureIsRefused() {
        #expect(throws: FFmpegError.self) {
            // Inside the stored 320×240, outside the shown 240×320.
            try geometry(320, 240, rotation: 90, VideoEdit(crop: .init(x: 0, y: 0, width: 300, height: 10)))
        }
        #expect(throws: FFmpegError.self) {
            try geometry(320, 240, VideoEdit(crop: .init(x: 0, y: 0, width: 0, height: 10)))
        }
    }
}
