from deskact.runtime.agent.parsing import extract_code


def test_python_fence_wins_over_others():
    reply = "Let me look.\n```bash\nls\n```\n```python\nprint(1)\n```\n"
    parsed = extract_code(reply)
    assert parsed.code == "print(1)"
    assert parsed.blocks == 1


def test_several_python_blocks_run_the_first_and_say_so():
    parsed = extract_code("```python\na = 1\n```\nthen\n```py\nb = 2\n```")
    assert parsed.code == "a = 1"
    assert "2 code blocks" in parsed.note


def test_shell_fence_becomes_a_bash_cell():
    assert extract_code("```sh\necho hi\n```").code == "%%bash\necho hi"


def test_untagged_fence_is_python_and_other_languages_are_not_code():
    assert extract_code("```\nx = 3\n```").code == "x = 3"
    assert extract_code('```json\n{"a": 1}\n```').code is None
    assert extract_code("I am done, the answer is 42.").code is None


def test_unterminated_fence_is_closed_at_the_end():
    assert extract_code("```python\nprint('cut off')").code == "print('cut off')"


def test_empty_block_is_no_code_with_a_note():
    parsed = extract_code("```python\n\n```")
    assert parsed.code is None and "empty" in parsed.note
