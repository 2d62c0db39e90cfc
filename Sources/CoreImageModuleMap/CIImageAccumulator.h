// Intentionally empty: the declarations of `import CoreImage.CIImageAccumulator` are Swift declarations of the CoreImage module.
