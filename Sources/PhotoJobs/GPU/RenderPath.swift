/// Which path rendered a chunk's pictures, as recorded with the chunk (its executor).
package enum RenderPath: String, Sendable {
    case cpu
    case gpu
}
