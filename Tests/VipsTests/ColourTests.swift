import Foundation
import Testing
import Vips

@Suite struct ColourTests {
    init() throws {
        try VipsTestSupport.start()
    }

    static let samples: [[Int]] = [[100, 150, 200], [10, 240, 30], [0, 0, 0], [255, 255, 255], [128, 64, 250]]

    /// The documented definition, written out plainly.
    static func expected(_ rgb: [Int], exposure: Double, contrast: Double, saturation: Double) -> [Int] {
        let v2 = rgb.map { (Double($0) * pow(2, exposure) - 128) * contrast + 128 }
        let luma = 0.299 * v2[0] + 0.587 * v2[1] + 0.114 * v2[2]
        return v2.map { v in Int(min(255, max(0, (luma + (v - luma) * saturation).rounded()))) }
    }

    @Test(arguments: [(1.0, 1.0, 1.0), (-1.0, 1.0, 1.0), (0.0, 1.5, 1.0), (0.0, 0.5, 1.0), (0.0, 1.0, 0.0),
                      (0.0, 1.0, 2.0), (0.5, 1.2, 0.7), (-0.3, 0.8, 1.6)])
    func adjustmentsFollowTheDocumentedDefinition(settings: (Double, Double, Double)) throws {
        let (exposure, contrast, saturation) = settings
        let image = try TestImages.pixels([Self.samples.map { $0.map(UInt8.init) }])
        let adjusted = try image.adjusted(exposure: exposure, contrast: contrast, saturation: saturation)
        for (x, sample) in Self.samples.enumerated() {
            let want = Self.expected(sample, exposure: exposure, contrast: contrast, saturation: saturation)
            let got = try adjusted.pixel(x: x, y: 0)
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 1 }, "pixel \(sample): got \(got), want \(want)")
        }
    }

    @Test func adjustmentsLeaveAlphaAlone() throws {
        let image = try TestImages.pixels([[[100, 150, 200, 33], [10, 240, 30, 250]]])
        let adjusted = try image.adjusted(exposure: 1, contrast: 0.5, saturation: 0)
        #expect(adjusted.bands == 4)
        #expect(try adjusted.pixel(x: 0, y: 0)[3] == 33)
        #expect(try adjusted.pixel(x: 1, y: 0)[3] == 250)
        let want = Self.expected([100, 150, 200], exposure: 1, contrast: 0.5, saturation: 0)
        #expect(try Array(adjusted.pixel(x: 0, y: 0).prefix(3)).elementsEqual(want) { abs($0 - $1) <= 1 })
    }

    @Test func greyImagesStayGreyUnderExposureAndContrast() throws {
        let grey = try VipsImage.fromPixels(Data([50, 200]), width: 2, height: 1, bands: 1)
        let adjusted = try grey.adjusted(exposure: 1, contrast: 1, saturation: 0)
        #expect(adjusted.bands == 1)
        #expect(try adjusted.pixel(x: 0, y: 0) == [100])
        #expect(try adjusted.pixel(x: 1, y: 0) == [255])
    }

    @Test func neutralAdjustmentsReturnTheSameImage() throws {
        let image = try TestImages.gradient(width: 4, height: 4)
        #expect(try image.adjusted(exposure: 0, contrast: 1, saturation: 1) === image)
    }

    @Test func flatteningCompositesAlphaOntoTheBackground() throws {
        let image = try TestImages.pixels([[[0, 0, 255, 0], [0, 0, 255, 255], [0, 0, 255, 128]]])
        let flat = try image.flattened(background: [255, 0, 0])
        #expect(flat.bands == 3)
        #expect(!flat.hasAlpha)
        #expect(try flat.pixel(x: 0, y: 0) == [255, 0, 0])
        #expect(try flat.pixel(x: 1, y: 0) == [0, 0, 255])
        let half = try flat.pixel(x: 2, y: 0)
        #expect(abs(half[0] - 127) <= 1 && abs(half[2] - 128) <= 1)
    }

    @Test func flatteningAnOpaqueImageChangesNothing() throws {
        let image = try TestImages.gradient(width: 4, height: 4)
        #expect(try image.flattened(background: [0]) === image)
    }

    @Test func greyBecomesThreeBandSRGB() throws {
        let grey = try VipsImage.fromPixels(Data([77]), width: 1, height: 1, bands: 1)
        let colour = try grey.toSRGB8()
        #expect(colour.bands == 3)
        #expect(try colour.pixel(x: 0, y: 0) == [77, 77, 77])
    }
}
