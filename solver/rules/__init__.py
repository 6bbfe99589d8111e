"""The rules view (characteristics after continuous effects, CR 613) and what each rule says of it."""
