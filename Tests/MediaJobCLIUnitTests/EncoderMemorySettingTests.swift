@testable import MediaCommands
import MediaJobCLI
@testable import PhotoCommands
import Testing

/// `MEDIAJOB_ENCODER_MEMORY`'s sizes: bytes, or a number with a binary suffix.
@Suite struct EncoderMemorySettingTests {
    @Test func sizesAreBytesOrPowersOf1024() {
        #expect(CommandContext.byteCount("1048576") == 1 << 20)
        #expect(CommandContext.byteCount("600M") == 600 << 20)
        #expect(CommandContext.byteCount("600m") == 600 << 20)
        #expect(CommandContext.byteCount("1.5G") == 3 << 29)
        #expect(CommandContext.byteCount(" 2T ") == 2 << 40)
        #expect(CommandContext.byteCount("64K") == 64 << 10)
    }

    @Test func anythingElseIsNoSize() {
        for text in ["", "M", "lots", "-5M", "0", "1.5X", "nan", "1e30G", "600 MB"] {
            #expect(CommandContext.byteCount(text) == nil, "\(text)")
        }
    }
}
