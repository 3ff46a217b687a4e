"""The rules of Port Arthur, section by section, one module per part of the rulebook."""
