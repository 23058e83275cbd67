#version 450
// lanczos.glsl for packed pictures (RGBA working pictures).
#extension GL_GOOGLE_include_directive : require
#include "lanczos.glsl"
