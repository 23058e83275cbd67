import Foundation
import XCTest

/// The committed SPIR-V is what `Scripts/make-shaders` makes from the committed GLSL (glslc is
/// installed by `Scripts/setup`).
final class ShaderSourceTests: XCTestCase {
    static let shaders = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CShaders")

    func testCommittedSPIRVMatchesItsSource() throws {
        let glslc = "/usr/bin/glslc"
        // Scripts/setup installs glslc, so its absence is a failure here, not a reason to skip.
        guard FileManager.default.isExecutableFile(atPath: glslc) else {
            return XCTFail("glslc is not installed: run Scripts/setup (Debian package glslc)")
        }
        let sources = try FileManager.default.contentsOfDirectory(atPath: Self.shaders.appendingPathComponent("glsl").path)
            .filter { $0.hasSuffix(".comp") }
        XCTAssertEqual(sources.count, 10)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("spirv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for source in sources {
            let name = (source as NSString).deletingPathExtension
            let made = scratch.appendingPathComponent("\(name).spv.inc")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: glslc)
            // The same arguments as Scripts/make-shaders.
            process.arguments = ["-O", "--target-env=vulkan1.0", "-mfmt=c", "-o", made.path,
                                 Self.shaders.appendingPathComponent("glsl/\(source)").path]
            try process.run()
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, source)
            let committed = try Data(contentsOf: Self.shaders.appendingPathComponent("spirv/\(name).spv.inc"))
            XCTAssertEqual(try Data(contentsOf: made), committed, "spirv/\(name).spv.inc is stale: run Scripts/make-shaders")
        }
    }
}
