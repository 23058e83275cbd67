// The project's one colour definition (the CPU path's), on 8-bit RGB values v, with gain = 2^e·c
// and offset = 128·(1 − c) for exposure e and contrast c, and saturation s:
//   v₂ = v·gain + offset;  Y = 0.299 R₂ + 0.587 G₂ + 0.114 B₂;  v₃ = Y + (v₂ − Y)·s;
//   out = round_half_even(v₃) clamped to 0…255.
vec3 adjusted(vec3 v, float gain, float offset, float saturation) {
    vec3 c = v * gain + offset;
    float luma = dot(c, vec3(0.299, 0.587, 0.114));
    return clamp(roundEven(luma + (c - luma) * saturation), 0.0, 255.0);
}
