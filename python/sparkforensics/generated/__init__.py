# Generated from schemas/ by scripts/generate_types.sh (datamodel-code-generator): do not edit.
