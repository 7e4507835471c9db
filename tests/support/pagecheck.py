"""What every page test checks of a page answer: its status, that it is HTML, its text."""


def html(response, status=200):
    assert response.status_code == status, response.get_data(as_text=True)[:500]
    assert response.mimetype == "text/html"
    return response.get_data(as_text=True)
