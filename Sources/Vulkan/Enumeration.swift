import CVulkan

/// Vulkan's count-then-fill enumeration: asks for the count, then fills an array of that size,
/// repeating while the call answers `VK_INCOMPLETE` (the count grew in between).
func enumerate<T>(_ operation: String, empty: T,
                  _ call: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<T>?) -> VkResult) throws -> [T] {
    while true {
        var count: UInt32 = 0
        try check(call(&count, nil), operation)
        var items = [T](repeating: empty, count: Int(count))
        let result = items.withUnsafeMutableBufferPointer { call(&count, $0.baseAddress) }
        if result == VK_INCOMPLETE { continue }
        try check(result, operation)
        return Array(items.prefix(Int(count)))
    }
}

/// The same for calls that cannot fail (they return nothing).
func enumerate<T>(empty: T, _ call: (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<T>?) -> Void) -> [T] {
    var count: UInt32 = 0
    call(&count, nil)
    var items = [T](repeating: empty, count: Int(count))
    items.withUnsafeMutableBufferPointer { call(&count, $0.baseAddress) }
    return Array(items.prefix(Int(count)))
}

/// A NUL-terminated C string held in a fixed-size tuple field, as Swift.
func string<Tuple>(fromCharacters tuple: Tuple) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.bindMemory(to: UInt8.self)
        return String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
    }
}
