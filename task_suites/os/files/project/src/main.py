from util import greet


def main():
    print(greet('world'))


if __name__ == '__main__':
    main()
