"""What users touch: the CLI, notebook Env and magics, rich views, doctor, `deskact exec`, HTML reports."""
