import Foundation

/// Python's `zipfile`, a zip reader that shares no code with libarchive.
enum IndependentZipReader {
    /// What `zipfile` reads from a zip's central directory for one entry.
    struct Entry: Decodable, Equatable {
        var name: String
        var size: Int64
        var compressedSize: Int64
        /// 0 for stored, 8 for deflated.
        var method: Int
        /// The Unix mode from the external attributes.
        var mode: Int
        /// The modification time from the extended-timestamp (`UT`) extra field, if present.
        var extendedModificationTime: Int?
        /// The owner and group from the Info-ZIP Unix (`ux`) extra field, if present.
        var uid: Int?
        var gid: Int?
        /// Whether the name is flagged as UTF-8.
        var utf8Flag: Bool
        /// The CRC-32 of the contents as `zipfile` computed them while reading.
        var crcMatches: Bool
    }

    /// Runs `python3 -m zipfile <option> <zip>` and returns its exit status and output.
    static func module(_ option: String, _ zip: String) throws -> (status: Int32, output: String) {
        try python(["-m", "zipfile", option, zip])
    }

    /// Reads every entry's central-directory record and checks its contents.
    static func entries(of zip: String) throws -> [Entry] {
        let (status, output) = try python(["-c", script, zip])
        guard status == 0 else { throw Failure(output: output) }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode([Entry].self, from: Data(output.utf8))
    }

    struct Failure: Error, CustomStringConvertible {
        var output: String
        var description: String { "python3 failed: \(output)" }
    }

    private static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        // Under timeout(1): a python3 that hangs is killed after ten minutes and exits 124.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--signal=KILL", "600", "python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    private static let script = #"""
import json, struct, sys, zipfile, zlib

def fields(extra):
    while len(extra) >= 4:
        tag, size = struct.unpack("<HH", extra[:4])
        yield tag, extra[4:4 + size]
        extra = extra[4 + size:]

result = []
with zipfile.ZipFile(sys.argv[1]) as archive:
    for info in archive.infolist():
        entry = {"name": info.filename, "size": info.file_size,
                 "compressed_size": info.compress_size, "method": info.compress_type,
                 "mode": info.external_attr >> 16, "utf8_flag": bool(info.flag_bits & 0x800)}
        for tag, body in fields(info.extra):
            if tag == 0x5455 and body[0] & 1:
                entry["extended_modification_time"] = struct.unpack("<I", body[1:5])[0]
            if tag == 0x7875:
                uid_size = body[1]
                entry["uid"] = int.from_bytes(body[2:2 + uid_size], "little")
                gid_size = body[2 + uid_size]
                entry["gid"] = int.from_bytes(body[3 + uid_size:3 + uid_size + gid_size], "little")
        entry["crc_matches"] = zlib.crc32(archive.read(info)) == info.CRC
        result.append(entry)
print(json.dumps(result))
"""#
}
