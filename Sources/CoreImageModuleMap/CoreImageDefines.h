// Intentionally empty: the declarations of `import CoreImage.CoreImageDefines` are Swift declarations of the CoreImage module.
