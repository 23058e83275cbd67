/// How close the GPU path's pictures must be to the CPU path's, as PSNR in dB over 8-bit values:
/// what the parity tests and `gpu-check` require.
public enum ParityTolerance {
    /// Photos, every operation alone and combined.
    public static let photo = 45.0
    /// Video pictures without a colour change: both paths resize the YUV planes.
    public static let video = 45.0
    /// Video pictures with a colour change: both go through RGB, but subsample chroma differently.
    public static let videoColour = 40.0
}
