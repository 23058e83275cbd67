import CVips
import Foundation
import Testing
import Vips

@Suite struct LibraryTests {
    init() throws {
        try VipsTestSupport.start()
    }

    @Test func initialisingAgainIsHarmless() throws {
        try Vips.initialize()
        try Vips.initialize(temporaryDirectory: "/nonexistent-ignored-after-the-first-call")
        #expect(try TestImages.gradient(width: 2, height: 2).width == 2)
    }

    @Test func theOperationCacheIsOffSoThatNoImageOutlivesItsWork() {
        #expect(vips_cache_get_max() == 0)
        #expect(vips_cache_get_max_mem() == 0)
        #expect(vips_cache_get_max_files() == 0)
    }

    @Test func theVersionIsLibvipsEight() {
        #expect(Vips.version.hasPrefix("8."))
    }

    @Test func jpegPNGAndWebPCanAlwaysBeWritten() {
        #expect(ImageFormat.available.contains(.jpeg))
        #expect(ImageFormat.available.contains(.png))
        #expect(ImageFormat.available.contains(.webp))
        #expect(ImageFormat.allCases.map(\.fileExtension) == ["jpg", "webp", "avif", "png"])
    }

    @Test func limitsDecodeWithTheDefaultWhenTheFieldIsMissing() throws {
        let defaulted = try JSONDecoder().decode(ImageLimits.self, from: Data("{}".utf8))
        #expect(defaulted.maxPixels == 268_402_689)
        let given = try JSONDecoder().decode(ImageLimits.self, from: Data(#"{"maxPixels": 1000}"#.utf8))
        #expect(given.maxPixels == 1000)
    }
}
