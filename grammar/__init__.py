"""The grammar of the rules DSL (canastra.lark): a data package of canastra_ref."""
