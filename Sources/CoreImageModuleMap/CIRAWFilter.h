// Intentionally empty: the declarations of `import CoreImage.CIRAWFilter` are Swift declarations of the CoreImage module.
