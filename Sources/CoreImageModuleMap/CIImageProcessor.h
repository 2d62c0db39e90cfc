// Intentionally empty: the declarations of `import CoreImage.CIImageProcessor` are Swift declarations of the CoreImage module.
